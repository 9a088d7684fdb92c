// Command groupload drives realistic participants of Interlude group sessions (docs/group-protocol.md)
// against one or several `interlude serve` processes and checks what they see: every participant
// says hello with its session's invitation, keeps alive, probes the clock, restates its own
// participant state, and one member of each session in turn sends a command; every participant
// applies events strictly in version order (duplicates counted, a gap repaired with `resync`).
// When a connection ends or fails, the participant moves to the next URL of -url and resumes
// (hello with resume {participant, secret, version}), sending again, with the same ids, the
// commands that were not acknowledged.
//
// Build (scripts/bootstrap --load does this, offline, against Debian's gorilla/websocket):
//
//	GO111MODULE=off GOPROXY=off GOPATH=/usr/share/gocode go build -o groupload .
//
// Participant i starts on URL i mod len(-url) and is in session i / -group, whose invitation is
// line i / -group of -tokens. After every participant has joined, the measured phase runs for
// -duration; then groupload waits up to -drain for outstanding acks and fan-outs, and checks:
//
//   - every acknowledged command is, at its acked version, in the sequence of every member of its
//     session that was there before that version (otherwise it is missing);
//   - no event was applied twice (a version at or below the last one outside a resync; a command
//     at two versions; a second ack at another version);
//   - every member of a session saw the same (sender, command) at each version it saw;
//   - no gap was left unrepaired;
//   - every participant joined, none was lost (a refused resume, or still down at the end), and no
//     two were welcomed under one participant id.
//
// Exit status: 0 when all of that holds, 1 otherwise, 2 when -deadline passed (the process exits
// there and then), 64 on bad usage.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"../loadkit"
)

const (
	maxParticipants = 50000
	maxDeadline     = 2 * time.Hour
)

type config struct {
	urls         []string
	tokens       []string
	participants int
	groupSize    int
	inFlight     int
	ramp         time.Duration
	duration     time.Duration
	commandEvery time.Duration
	probeEvery   time.Duration
	stateEvery   time.Duration
	pingEvery    time.Duration
	deadline     time.Duration
	drain        time.Duration
	dialTimeout  time.Duration
	silence      time.Duration
	command      string
	format       string
	record       string
	name         string
}

var command = loadkit.Command{Name: "groupload", Usage: "groupload -url ws://HOST:PORT/group[,ws://…] -tokens FILE [options]"}

func usageError(format string, arguments ...any) { command.Fail(format, arguments...) }

func parseConfig() config {
	var c config
	var urls, tokensFile string
	flag.CommandLine = flag.NewFlagSet("groupload", flag.ContinueOnError)
	flag.StringVar(&urls, "url", "", "comma-separated WebSocket URLs (`ws://A/group,ws://B/group`); participant i starts on URL i mod count and moves to the next on failure; required")
	flag.StringVar(&tokensFile, "tokens", "", "a file of invitation tokens, one a line, one per session; required")
	flag.IntVar(&c.participants, "n", 100, "participants")
	flag.IntVar(&c.groupSize, "group", 10, "participants per session (participant i is in session i / group)")
	flag.IntVar(&c.inFlight, "in-flight", 100, "at most this many joins at once")
	flag.DurationVar(&c.ramp, "ramp", 0, "spread the joins over this long (0: as fast as -in-flight allows)")
	flag.DurationVar(&c.duration, "duration", 10*time.Second, "length of the measured phase, after every participant has joined")
	flag.DurationVar(&c.commandEvery, "command-every", 3*time.Second, "per session, one member in turn sends a command this often (sessions spread over the interval; 0: never)")
	flag.DurationVar(&c.probeEvery, "probe-every", time.Second, "clock probes per participant (0: never)")
	flag.DurationVar(&c.stateEvery, "state-every", 5*time.Second, "participant-state commands per participant (0: never)")
	flag.DurationVar(&c.pingEvery, "ping-every", time.Second, "keep-alive pings per participant (0: never)")
	flag.DurationVar(&c.deadline, "deadline", 120*time.Second, "hard limit for the whole run: exit 2 when it passes")
	flag.DurationVar(&c.drain, "drain", 5*time.Second, "after the measured phase, wait at most this long for acks, fan-outs and resumes")
	flag.DurationVar(&c.dialTimeout, "dial-timeout", 10*time.Second, "how long a join or a resume may take, handshake to welcome")
	flag.DurationVar(&c.silence, "silence", 5*time.Second, "a connection that receives nothing for this long is taken as failed")
	flag.StringVar(&c.command, "command", "playback", "what -command-every sends: playback (play/pause states; needs controller or owner invitations) or custom")
	flag.StringVar(&c.format, "format", "text", "text or json")
	flag.StringVar(&c.record, "record", "", "write per participant what it saw and sent to this file (JSON lines)")
	flag.StringVar(&c.name, "name", "load", "participants are named NAME-i")
	command.Parse("")
	for _, u := range strings.Split(urls, ",") {
		u = strings.TrimSpace(u)
		if u == "" {
			continue
		}
		if !strings.HasPrefix(u, "ws://") && !strings.HasPrefix(u, "wss://") {
			usageError("-url: %q is not a ws:// or wss:// URL", u)
		}
		c.urls = append(c.urls, u)
	}
	if len(c.urls) == 0 {
		usageError("-url is required")
	}
	if c.participants < 1 || c.participants > maxParticipants {
		usageError("-n must be from 1 to %d", maxParticipants)
	}
	if c.groupSize < 1 || c.groupSize > 256 {
		usageError("-group must be from 1 to 256")
	}
	if c.inFlight < 1 || c.inFlight > 10000 {
		usageError("-in-flight must be from 1 to 10000")
	}
	if c.deadline <= 0 || c.deadline > maxDeadline {
		usageError("-deadline must be positive and at most %v", maxDeadline)
	}
	for _, d := range []time.Duration{c.commandEvery, c.probeEvery, c.stateEvery, c.pingEvery} {
		if d < 0 || (d > 0 && d < 10*time.Millisecond) {
			usageError("-command-every, -probe-every, -state-every and -ping-every must be 0 or at least 10ms")
		}
	}
	if c.ramp < 0 || c.duration < 0 || c.drain < 0 || c.dialTimeout <= 0 || c.silence <= 0 {
		usageError("durations must not be negative, and the timeouts must be positive")
	}
	if c.command != "playback" && c.command != "custom" {
		usageError("-command must be playback or custom")
	}
	if c.format != "text" && c.format != "json" {
		usageError("-format must be text or json")
	}
	if tokensFile == "" {
		usageError("-tokens is required")
	}
	data, err := loadkit.ReadBounded(tokensFile, 64<<20)
	if err != nil {
		usageError("-tokens: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			if len(line) > 4096 {
				usageError("-tokens: a token is longer than 4096 bytes")
			}
			c.tokens = append(c.tokens, line)
		}
	}
	if sessions := (c.participants + c.groupSize - 1) / c.groupSize; len(c.tokens) < sessions {
		usageError("-tokens: %d tokens for %d sessions", len(c.tokens), sessions)
	}
	return c
}

// entry is one applied event: its version, its sender (interned in the session), and either the
// command's number (tag < 0) or an interned description of an event that is not one of ours
// (presence, another client's message).
type entry struct {
	version uint64
	sender  int32
	tag     int32
	n       int64
}

type cmdKey struct {
	sender int32
	n      int64
}

type pendingFanOut struct {
	sentAt    int64
	remaining int
}

type ackedCommand struct {
	key     cmdKey
	version uint64
}

// slowFanOut is a session's slowest fan-out: which command, at which version, whose receipt
// completed it and on which URL that member was.
type slowFanOut struct {
	latency int64
	command string
	version uint64
	last    int
	url     int
}

type session struct {
	index   int
	token   string
	members []*participant

	mu      sync.Mutex
	names   map[string]int32
	list    []string
	pending map[cmdKey]*pendingFanOut
	fanOut  []int64
	slowest slowFanOut
	acked   []ackedCommand
}

// intern gives s (participant id or event description) a small number; the caller holds mu.
func (s *session) intern(b []byte) int32 {
	if n, ok := s.names[string(b)]; ok {
		return n
	}
	n := int32(len(s.list))
	name := string(b)
	s.names[name] = n
	s.list = append(s.list, name)
	return n
}

type sentCommand struct {
	id      string
	n       int64
	payload []byte
	sentAt  int64
	version uint64 // 0 until acked
	refused string
	acked   bool
}

type participant struct {
	index    int
	sess     *session
	name     string
	urlIndex int
	run      *runner

	writeMu sync.Mutex
	conn    *websocket.Conn // nil while down; set and cleared under writeMu
	out     []byte          // scratch for messages written under writeMu

	// Set by the welcome, read by writers after the first welcome.
	id     string
	idTag  int32
	secret string

	// Owned by the reader goroutine.
	last        uint64
	joinVersion uint64
	resyncing   bool
	highest     uint64
	seen        []entry
	buf         bytes.Buffer
	readNs      int64

	cmdMu    sync.Mutex
	nextN    int64
	commands []*sentCommand
	unacked  map[string]*sentCommand
	ackNs    []int64
	probeNs  []int64

	opened   bool
	gaveUp   atomic.Bool
	down     atomic.Bool
	resyncAt time.Time
	done     chan struct{}

	// Counters, owned by the reader.
	duplicates, resyncOverlap, resyncs, reconnects int
	strayAcks, ackMismatch                         int
	resumeNs                                       []int64
}

type runner struct {
	config    config
	start     time.Time
	sessions  []*session
	people    []*participant
	dialer    websocket.Dialer
	errors    *loadkit.Tally
	measuring atomic.Bool
	closing   atomic.Bool
}

func (r *runner) since() int64 { return int64(time.Since(r.start)) }

// --- Scanning the server's messages -------------------------------------------------------------
//
// The server writes its messages with keys in a fixed order (pinned by the protocol's goldens), so
// the frequent ones (event, ack, pong, clock.reply) are read by looking for their keys; a welcome
// or an error goes through encoding/json.

func intAfter(b []byte, key string) (int64, bool) {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return 0, false
	}
	i += len(key)
	negative := false
	if i < len(b) && b[i] == '-' {
		negative = true
		i++
	}
	start := i
	var v int64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		v = v*10 + int64(b[i]-'0')
		i++
	}
	if i == start {
		return 0, false
	}
	if negative {
		v = -v
	}
	return v, true
}

// stringAfter is the string value after key (which ends with the opening quote); no escapes.
func stringAfter(b []byte, key string) ([]byte, bool) {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return nil, false
	}
	i += len(key)
	end := bytes.IndexByte(b[i:], '"')
	if end < 0 || bytes.IndexByte(b[i:i+end], '\\') >= 0 {
		return nil, false
	}
	return b[i : i+end], true
}

var (
	prefixEvent = []byte(`{"type":"event",`)
	prefixAck   = []byte(`{"type":"ack",`)
	prefixPong  = []byte(`{"type":"pong"`)
	prefixReply = []byte(`{"type":"clock.reply",`)
	prefixWel   = []byte(`{"type":"welcome",`)
	prefixError = []byte(`{"type":"error",`)
)

// parsed event: version, sender bytes, and the command number or a description.
type parsedEvent struct {
	version uint64
	sender  []byte
	n       int64 // ≥ 0: one of our commands (n); < 0: desc describes it
	desc    []byte
}

func parseEvent(b []byte, ev *parsedEvent, scratch []byte) ([]byte, bool) {
	v, ok := intAfter(b, `"version":`)
	if !ok || v < 0 {
		return scratch, false
	}
	ev.version = uint64(v)
	if ev.sender, ok = stringAfter(b, `"sender":"`); !ok {
		return scratch, false
	}
	ev.n = -1
	ev.desc = nil
	switch {
	case bytes.Contains(b, []byte(`"message":{"type":"playback-state"`)):
		if n, ok := intAfter(b, `"counter":`); ok {
			ev.n = n
			return scratch, true
		}
		scratch = append(scratch[:0], "message:playback-state"...)
	case bytes.Contains(b, []byte(`"message":{"type":"participant-state"`)):
		if n, ok := intAfter(b, `"sequence":`); ok {
			ev.n = n
			return scratch, true
		}
		scratch = append(scratch[:0], "message:participant-state"...)
	case bytes.Contains(b, []byte(`"custom":{"messageType":"groupload"`)):
		if n, ok := intAfter(b, `"body":{"n":`); ok {
			ev.n = n
			return scratch, true
		}
		scratch = append(scratch[:0], "custom:groupload"...)
	case bytes.Contains(b, []byte(`"presence":{`)):
		who, ok1 := stringAfter(b, `"presence":{"participant":"`)
		state, ok2 := stringAfter(b, `"state":"`)
		if !ok1 || !ok2 {
			return scratch, false
		}
		scratch = append(append(append(append(scratch[:0], "presence:"...), state...), ':'), who...)
	default:
		// Another client's message: described by its kind and type.
		if t, ok := stringAfter(b, `"custom":{"messageType":"`); ok {
			scratch = append(append(scratch[:0], "custom:"...), t...)
		} else if t, ok := stringAfter(b, `"message":{"type":"`); ok {
			scratch = append(append(scratch[:0], "message:"...), t...)
		} else {
			scratch = append(scratch[:0], "other"...)
		}
	}
	ev.desc = scratch
	return scratch, true
}

type welcomeMessage struct {
	Participant string            `json:"participant"`
	Secret      string            `json:"secret"`
	Version     uint64            `json:"version"`
	Snapshot    []json.RawMessage `json:"snapshot"`
}

type errorMessage struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	ID      string `json:"id"`
}

// --- Writing ------------------------------------------------------------------------------------

// write sends message on the current connection, if there is one; a failed write closes the
// connection so that the reader moves on.
func (p *participant) write(message []byte) bool {
	p.writeMu.Lock()
	defer p.writeMu.Unlock()
	return p.writeLocked(message)
}

func (p *participant) writeLocked(message []byte) bool {
	conn := p.conn
	if conn == nil {
		return false
	}
	conn.SetWriteDeadline(time.Now().Add(p.run.config.dialTimeout))
	if err := conn.WriteMessage(websocket.TextMessage, message); err != nil {
		if !p.run.closing.Load() {
			p.run.errors.Add(loadkit.Classify("write", err), err)
		}
		conn.Close()
		return false
	}
	return true
}

func (p *participant) hello(resume bool) []byte {
	b := append([]byte(nil), `{"type":"hello","protocol":1,"token":`...)
	b = strconv.AppendQuote(b, p.sess.token)
	b = append(b, `,"name":`...)
	b = strconv.AppendQuote(b, p.name)
	if resume {
		b = append(b, `,"resume":{"participant":`...)
		b = strconv.AppendQuote(b, p.id)
		b = append(b, `,"secret":`...)
		b = strconv.AppendQuote(b, p.secret)
		b = append(b, `,"version":`...)
		b = strconv.AppendUint(b, p.last, 10)
		b = append(b, '}')
	}
	return append(b, '}')
}

// command makes, registers and sends one command; kind is "playback", "custom" or "state".
func (p *participant) command(kind string, play bool) {
	now := p.run.since()
	p.cmdMu.Lock()
	p.nextN++
	n := p.nextN
	id := p.id + "-" + strconv.FormatInt(n, 10)
	b := make([]byte, 0, 256)
	b = append(b, `{"type":`...)
	switch kind {
	case "custom":
		b = append(b, `"custom","id":"`...)
		b = append(b, id...)
		b = append(b, `","messageType":"groupload","body":{"n":`...)
		b = strconv.AppendInt(b, n, 10)
		b = append(b, `}}`...)
	case "state":
		b = append(b, `"command","id":"`...)
		b = append(b, id...)
		b = append(b, `","message":{"type":"participant-state","participant":"`...)
		b = append(b, p.id...)
		b = append(b, `","sequence":`...)
		b = strconv.AppendInt(b, n, 10)
		b = append(b, `,"itemIdentifier":"movie","isReadyToPlay":`...)
		b = strconv.AppendBool(b, n%4 != 0)
		b = append(b, `,"suspensionReasons":[],"waitIntervals":[],"contentDuration":{"value":600,"timescale":1},"sharedBreakDurations":{}}}`...)
	default:
		rate := "1"
		if !play {
			rate = "0"
		}
		b = append(b, `"command","id":"`...)
		b = append(b, id...)
		b = append(b, `","message":{"type":"playback-state","itemIdentifier":"movie","rate":`...)
		b = append(b, rate...)
		b = append(b, `,"anchorTime":{"value":`...)
		b = strconv.AppendInt(b, now/int64(time.Millisecond), 10)
		b = append(b, `,"timescale":1000},"anchorGroupTime":`...)
		b = strconv.AppendInt(b, now, 10)
		b = append(b, `,"timestamp":{"counter":`...)
		b = strconv.AppendInt(b, n, 10)
		b = append(b, `,"participant":"`...)
		b = append(b, p.id...)
		b = append(b, `","issuedAt":`...)
		b = strconv.AppendInt(b, now, 10)
		b = append(b, `},"playsImmediately":false}}`...)
	}
	c := &sentCommand{id: id, n: n, payload: b, sentAt: now}
	p.commands = append(p.commands, c)
	p.unacked[id] = c
	p.cmdMu.Unlock()

	s := p.sess
	others := 0
	for _, m := range s.members {
		if m != p && m.opened && !m.gaveUp.Load() {
			others++
		}
	}
	if others > 0 {
		s.mu.Lock()
		s.pending[cmdKey{p.idTag, n}] = &pendingFanOut{sentAt: now, remaining: others}
		s.mu.Unlock()
	}
	p.write(b) // when down, it is sent again after the resume
}

// --- Reading ------------------------------------------------------------------------------------

// readMessage reads the next message into p.buf, waiting until deadline at the most.
func (p *participant) readMessage(conn *websocket.Conn, deadline time.Time) ([]byte, error) {
	conn.SetReadDeadline(deadline)
	kind, reader, err := conn.NextReader()
	if err != nil {
		return nil, err
	}
	p.buf.Reset()
	if _, err := p.buf.ReadFrom(reader); err != nil {
		return nil, err
	}
	if kind != websocket.TextMessage {
		return nil, errors.New("a binary frame")
	}
	p.readNs = p.run.since()
	return p.buf.Bytes(), nil
}

// join dials url, says hello (with resume after the first welcome) and waits for the welcome.
func (p *participant) join(resume bool) (*websocket.Conn, error) {
	url := p.run.config.urls[p.urlIndex]
	conn, response, err := p.run.dialer.Dial(url, nil)
	if err != nil {
		if response != nil {
			err = fmt.Errorf("%w (HTTP %d)", err, response.StatusCode)
		}
		return nil, err
	}
	conn.SetReadLimit(1 << 20)
	conn.SetWriteDeadline(time.Now().Add(p.run.config.dialTimeout))
	if err := conn.WriteMessage(websocket.TextMessage, p.hello(resume)); err != nil {
		conn.Close()
		return nil, err
	}
	deadline := time.Now().Add(p.run.config.dialTimeout)
	for time.Now().Before(deadline) {
		message, err := p.readMessage(conn, deadline)
		if err != nil {
			conn.Close()
			return nil, err
		}
		switch {
		case bytes.HasPrefix(message, prefixWel):
			var w welcomeMessage
			if err := json.Unmarshal(message, &w); err != nil {
				conn.Close()
				return nil, fmt.Errorf("welcome: %w", err)
			}
			if !resume {
				p.id = w.Participant
				p.secret = w.Secret
				p.sess.mu.Lock()
				p.idTag = p.sess.intern([]byte(w.Participant))
				p.sess.mu.Unlock()
				p.last = w.Version
				p.joinVersion = w.Version
				p.highest = w.Version
			} else {
				if w.Participant != p.id {
					conn.Close()
					return nil, fmt.Errorf("resumed as %s, not %s", w.Participant, p.id)
				}
				p.welcome(&w)
			}
			return conn, nil
		case bytes.HasPrefix(message, prefixError):
			var e errorMessage
			json.Unmarshal(message, &e)
			conn.Close()
			return nil, &refusal{code: e.Code, message: e.Message}
		}
		// Anything else before the welcome (a pong) is not news.
	}
	conn.Close()
	return nil, errors.New("no welcome")
}

type refusal struct{ code, message string }

func (e *refusal) Error() string { return e.code + ": " + e.message }

// welcome applies a resuming welcome: its snapshot holds the missed events (or, when they are
// older than the server's log, the session's snapshot, and then the gap is not repaired).
func (p *participant) welcome(w *welcomeMessage) {
	// Applied in version order whatever order the snapshot has.
	snapshot := make([]json.RawMessage, 0, len(w.Snapshot))
	versions := make(map[int]int64, len(w.Snapshot))
	for _, raw := range w.Snapshot {
		version, ok := intAfter(raw, `"version":`)
		if !ok {
			p.run.errors.Add("unreadable-event", errors.New(string(raw)))
			continue
		}
		versions[len(snapshot)] = version
		snapshot = append(snapshot, raw)
	}
	order := make([]int, len(snapshot))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return versions[order[a]] < versions[order[b]] })
	var ev parsedEvent
	scratch := make([]byte, 0, 128)
	for _, i := range order {
		var ok bool
		if scratch, ok = parseEvent(snapshot[i], &ev, scratch); !ok {
			p.run.errors.Add("unreadable-event", errors.New(string(snapshot[i])))
			continue
		}
		if ev.version <= p.last {
			continue // a snapshot may hold the newest of each kind, older than our last
		}
		p.apply(&ev) // after a gap (a snapshot instead of the missed events) it is counted as missed
	}
	if w.Version > p.last {
		p.last = w.Version
	}
	if w.Version > p.highest {
		p.highest = w.Version
	}
	p.resyncing = false
}

// apply records ev (version last+1, or later after an unrepairable gap) and counts its fan-out.
func (p *participant) apply(ev *parsedEvent) {
	s := p.sess
	s.mu.Lock()
	sender := s.intern(ev.sender)
	e := entry{version: ev.version, sender: sender, tag: -1, n: ev.n}
	if ev.n < 0 {
		e.tag = s.intern(ev.desc)
	} else if sender != p.idTag {
		if pending := s.pending[cmdKey{sender, ev.n}]; pending != nil {
			pending.remaining--
			if pending.remaining <= 0 {
				latency := p.readNs - pending.sentAt
				s.fanOut = append(s.fanOut, latency)
				if latency > s.slowest.latency {
					s.slowest = slowFanOut{latency: latency, command: string(ev.sender) + "-" + strconv.FormatInt(ev.n, 10),
						version: ev.version, last: p.index, url: p.urlIndex}
				}
				delete(s.pending, cmdKey{sender, ev.n})
			}
		}
	}
	s.mu.Unlock()
	p.seen = append(p.seen, e)
	p.last = ev.version
	if ev.version > p.highest {
		p.highest = ev.version
	}
}

func (p *participant) onEvent(message []byte, scratch []byte) []byte {
	var ev parsedEvent
	var ok bool
	if scratch, ok = parseEvent(message, &ev, scratch); !ok {
		p.run.errors.Add("unreadable-event", errors.New(string(message)))
		return scratch
	}
	if ev.version > p.highest {
		p.highest = ev.version
	}
	switch {
	case ev.version <= p.last:
		if p.resyncing {
			p.resyncOverlap++
		} else {
			p.duplicates++
		}
	case ev.version == p.last+1:
		p.apply(&ev)
		if p.resyncing && p.last >= p.highest {
			p.resyncing = false
		}
	default:
		// A gap: ask for the events from last+1 (once until it is repaired); this one comes again.
		if !p.resyncing || time.Since(p.resyncAt) > time.Second {
			p.resyncing = true
			p.resyncAt = time.Now()
			p.resyncs++
			b := append([]byte(nil), `{"type":"resync","from":`...)
			b = strconv.AppendUint(b, p.last+1, 10)
			b = append(b, '}')
			p.write(b)
		}
	}
	return scratch
}

func (p *participant) onAck(message []byte) {
	id, ok1 := stringAfter(message, `"id":"`)
	version, ok2 := intAfter(message, `"version":`)
	if !ok1 || !ok2 {
		p.run.errors.Add("unreadable-ack", errors.New(string(message)))
		return
	}
	p.cmdMu.Lock()
	defer p.cmdMu.Unlock()
	c := p.unacked[string(id)]
	if c == nil {
		// A second ack (a command sent again after a resume that the first ack also answered).
		for i := len(p.commands) - 1; i >= 0; i-- {
			if p.commands[i].id == string(id) {
				if p.commands[i].acked && p.commands[i].version != uint64(version) {
					p.ackMismatch++
				}
				return
			}
		}
		p.strayAcks++
		return
	}
	delete(p.unacked, c.id)
	c.acked = true
	c.version = uint64(version)
	p.ackNs = append(p.ackNs, p.readNs-c.sentAt)
	p.sess.mu.Lock()
	p.sess.acked = append(p.sess.acked, ackedCommand{key: cmdKey{p.idTag, c.n}, version: c.version})
	p.sess.mu.Unlock()
}

func (p *participant) onError(message []byte) {
	var e errorMessage
	if err := json.Unmarshal(message, &e); err != nil {
		p.run.errors.Add("unreadable-error", errors.New(string(message)))
		return
	}
	p.run.errors.Add("error-"+e.Code, errors.New(e.Message))
	if e.ID == "" {
		return
	}
	p.cmdMu.Lock()
	c := p.unacked[e.ID]
	if c != nil && e.Code != "internal" {
		delete(p.unacked, e.ID)
		c.refused = e.Code
	}
	p.cmdMu.Unlock()
	if c == nil {
		return
	}
	if e.Code == "internal" {
		// Not committed: send it again, same id.
		time.AfterFunc(100*time.Millisecond, func() { p.write(c.payload) })
		return
	}
	p.sess.mu.Lock()
	delete(p.sess.pending, cmdKey{p.idTag, c.n})
	p.sess.mu.Unlock()
}

// serve reads the connection until it ends, then resumes on the next URL, until groupload closes.
func (p *participant) serve(conn *websocket.Conn) {
	defer close(p.done)
	scratch := make([]byte, 0, 128)
	for {
		for {
			message, err := p.readMessage(conn, time.Now().Add(p.run.config.silence))
			if p.run.closing.Load() {
				return // what arrives while groupload closes is left out of the comparison
			}
			if err != nil {
				p.run.errors.Add(loadkit.Classify("read", err), err)
				break
			}
			switch {
			case bytes.HasPrefix(message, prefixEvent):
				scratch = p.onEvent(message, scratch)
			case bytes.HasPrefix(message, prefixAck):
				p.onAck(message)
			case bytes.HasPrefix(message, prefixPong):
			case bytes.HasPrefix(message, prefixReply):
				if sent, ok := intAfter(message, `"sent":`); ok && p.run.measuring.Load() {
					p.cmdMu.Lock()
					p.probeNs = append(p.probeNs, p.readNs-sent)
					p.cmdMu.Unlock()
				}
			case bytes.HasPrefix(message, prefixError):
				p.onError(message)
			case bytes.HasPrefix(message, prefixWel):
				// The answer to a resync whose events the server no longer has.
				var w welcomeMessage
				if err := json.Unmarshal(message, &w); err == nil {
					p.welcome(&w)
				}
			default:
				p.run.errors.Add("unexpected-message", errors.New(string(message)))
			}
		}
		// The connection ended: resume on the next URL.
		p.writeMu.Lock()
		p.conn = nil
		p.writeMu.Unlock()
		conn.Close()
		p.down.Store(true)
		lostAt := time.Now()
		backoff := 100 * time.Millisecond
		for {
			if p.run.closing.Load() {
				return
			}
			time.Sleep(backoff)
			if backoff *= 2; backoff > time.Second {
				backoff = time.Second
			}
			if p.run.closing.Load() {
				return
			}
			p.urlIndex = (p.urlIndex + 1) % len(p.run.config.urls)
			next, err := p.join(true)
			if err != nil {
				var r *refusal
				if errors.As(err, &r) {
					p.run.errors.Add("resume-"+r.code, err)
					if r.code == "unauthorized" || r.code == "session-ended" {
						p.gaveUp.Store(true)
						return
					}
				} else {
					p.run.errors.Add(loadkit.Classify("resume", err), err)
				}
				continue
			}
			conn = next
			break
		}
		p.resumeNs = append(p.resumeNs, int64(time.Since(lostAt)))
		p.reconnects++
		p.writeMu.Lock()
		p.conn = conn
		p.writeMu.Unlock()
		p.down.Store(false)
		// Send again what was not acknowledged, same ids, in the order it was first sent.
		p.cmdMu.Lock()
		again := make([]*sentCommand, 0, len(p.unacked))
		for _, c := range p.unacked {
			again = append(again, c)
		}
		p.cmdMu.Unlock()
		sort.Slice(again, func(a, b int) bool { return again[a].n < again[b].n })
		for _, c := range again {
			p.write(c.payload)
		}
	}
}

// tick sends the keep-alive pings, the clock probes and (in the measured phase) the participant
// states, each at a phase spread over its interval.
func (p *participant) tick(measureStart <-chan struct{}) {
	c := p.run.config
	phase := func(every time.Duration) time.Time {
		return time.Now().Add(time.Duration(int64(every) * int64(p.index%997) / 997))
	}
	far := time.Now().Add(1000 * time.Hour)
	nextPing, nextProbe, nextState := far, far, far
	if c.pingEvery > 0 {
		nextPing = phase(c.pingEvery)
	}
	var probeID int64
	measuring := false
	ping := []byte(`{"type":"ping"}`)
	probe := make([]byte, 0, 64)
	timer := time.NewTimer(time.Until(nextPing))
	defer timer.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-measureStart:
			measureStart = nil
			measuring = true
			if c.probeEvery > 0 {
				nextProbe = phase(c.probeEvery)
			}
			if c.stateEvery > 0 {
				nextState = phase(c.stateEvery)
			}
		case <-timer.C:
		}
		if p.run.closing.Load() {
			return
		}
		if !p.run.measuring.Load() && measuring {
			measuring = false
			nextProbe, nextState = far, far
		}
		now := time.Now()
		if !now.Before(nextPing) {
			p.write(ping)
			nextPing = now.Add(c.pingEvery)
		}
		if !now.Before(nextProbe) {
			probeID++
			probe = append(probe[:0], `{"type":"clock.probe","id":`...)
			probe = strconv.AppendInt(probe, probeID, 10)
			probe = append(probe, `,"sent":`...)
			probe = strconv.AppendInt(probe, p.run.since(), 10)
			probe = append(probe, '}')
			p.write(probe)
			nextProbe = now.Add(c.probeEvery)
		}
		if !now.Before(nextState) {
			p.command("state", false)
			nextState = now.Add(c.stateEvery)
		}
		next := nextPing
		if nextProbe.Before(next) {
			next = nextProbe
		}
		if nextState.Before(next) {
			next = nextState
		}
		timer.Reset(time.Until(next))
	}
}

// commands: one member of s in turn sends a command every -command-every, starting at offset.
func (r *runner) commands(s *session, offset time.Duration, stop <-chan struct{}) {
	every := r.config.commandEvery
	timer := time.NewTimer(offset)
	defer timer.Stop()
	for round := 0; ; round++ {
		select {
		case <-stop:
			return
		case <-timer.C:
		}
		timer.Reset(every)
		// The member whose turn it is, or the next one that is connected (or, with none, the
		// first that has not given up: its command goes out when it resumes).
		var sender, fallback *participant
		for k := 0; k < len(s.members) && sender == nil; k++ {
			m := s.members[(round+k)%len(s.members)]
			if !m.opened || m.gaveUp.Load() {
				continue
			}
			if fallback == nil {
				fallback = m
			}
			if !m.down.Load() {
				sender = m
			}
		}
		if sender == nil {
			sender = fallback
		}
		if sender == nil {
			continue
		}
		if r.config.command == "custom" {
			sender.command("custom", false)
		} else {
			sender.command("playback", round%2 == 0)
		}
	}
}

// --- The report ---------------------------------------------------------------------------------

type summary struct {
	URLs             []string          `json:"urls"`
	Participants     int               `json:"participants"`
	Sessions         int               `json:"sessions"`
	Opened           int               `json:"opened"`
	Resumed          int               `json:"resumed"`
	Lost             int               `json:"lost"`
	SharedIDs        []string          `json:"shared_ids"`
	JoinSeconds      float64           `json:"join_seconds"`
	MeasuredSeconds  float64           `json:"measured_seconds"`
	CommandsSent     int               `json:"commands_sent"`
	CommandsAcked    int               `json:"commands_acked"`
	CommandsRefused  int               `json:"commands_refused"`
	CommandsUnacked  int               `json:"commands_unacked"`
	CommandsMissing  int               `json:"commands_missing"`
	FanOutSamples    int               `json:"fanout_samples"`
	FanOutIncomplete int               `json:"fanout_incomplete"`
	FanOutP50Ms      float64           `json:"fanout_p50_ms"`
	FanOutP95Ms      float64           `json:"fanout_p95_ms"`
	FanOutP99Ms      float64           `json:"fanout_p99_ms"`
	FanOutMaxMs      float64           `json:"fanout_max_ms"`
	AckP50Ms         float64           `json:"ack_p50_ms"`
	AckP99Ms         float64           `json:"ack_p99_ms"`
	ProbeP50Ms       float64           `json:"probe_p50_ms"`
	ProbeP99Ms       float64           `json:"probe_p99_ms"`
	Events           int               `json:"events"`
	Duplicated       int               `json:"duplicated"`
	AppliedTwice     int               `json:"applied_twice"`
	AckMismatches    int               `json:"ack_mismatches"`
	StrayAcks        int               `json:"stray_acks"`
	Missed           int               `json:"missed"`
	Resyncs          int               `json:"resyncs"`
	ResyncOverlap    int               `json:"resync_overlap"`
	Reconnections    int               `json:"reconnections"`
	ResumeP50Ms      float64           `json:"resume_p50_ms"`
	ResumeP99Ms      float64           `json:"resume_p99_ms"`
	ResumeMaxMs      float64           `json:"resume_max_ms"`
	DisagreeingSess  []int             `json:"disagreeing_sessions"`
	Disagreements    []string          `json:"disagreement_examples"`
	MissingExamples  []string          `json:"missing_examples"`
	SlowestFanOuts   []string          `json:"slowest_fanouts"`
	Errors           map[string]int    `json:"errors"`
	ErrorExamples    map[string]string `json:"error_examples"`
	Seconds          float64           `json:"seconds"`
	OK               bool              `json:"ok"`
}

func findVersion(seen []entry, version uint64) (entry, bool) {
	i := sort.Search(len(seen), func(k int) bool { return seen[k].version >= version })
	if i < len(seen) && seen[i].version == version {
		return seen[i], true
	}
	return entry{}, false
}

func (s *session) describe(e entry) string {
	if e.tag >= 0 {
		return s.list[e.sender] + " " + s.list[e.tag]
	}
	return s.list[e.sender] + " " + s.list[e.sender] + "-" + strconv.FormatInt(e.n, 10)
}

func (r *runner) check(sum *summary) {
	var fan, acks, probes, resumes []int64
	for _, s := range r.sessions {
		s.mu.Lock()
		fan = append(fan, s.fanOut...)
		sum.FanOutIncomplete += len(s.pending)
		// The order: at each version, every member saw the same thing.
		byVersion := map[uint64]entry{}
		owner := map[uint64]int{}
		disagree := false
		for _, p := range s.members {
			if !p.opened {
				continue
			}
			for _, e := range p.seen {
				if first, ok := byVersion[e.version]; !ok {
					byVersion[e.version] = e
					owner[e.version] = p.index
				} else if first != e {
					if !disagree && len(sum.Disagreements) < 10 {
						sum.Disagreements = append(sum.Disagreements, fmt.Sprintf("session %d version %d: participant %d saw %s, participant %d saw %s",
							s.index, e.version, owner[e.version], s.describe(first), p.index, s.describe(e)))
					}
					disagree = true
				}
			}
		}
		if disagree {
			sum.DisagreeingSess = append(sum.DisagreeingSess, s.index)
		}
		// A command at two versions was applied twice.
		at := map[cmdKey]uint64{}
		for version, e := range byVersion {
			if e.tag >= 0 {
				continue
			}
			key := cmdKey{e.sender, e.n}
			if other, ok := at[key]; ok && other != version {
				sum.AppliedTwice++
			}
			at[key] = version
		}
		// Every acked command at its version, in every member there before it.
		for _, a := range s.acked {
			for _, p := range s.members {
				if !p.opened || p.gaveUp.Load() || p.joinVersion >= a.version {
					continue
				}
				e, ok := findVersion(p.seen, a.version)
				if !ok || e.tag >= 0 || e.sender != a.key.sender || e.n != a.key.n {
					sum.CommandsMissing++
					if len(sum.MissingExamples) < 10 {
						got := "nothing"
						if ok {
							got = s.describe(e)
						}
						sum.MissingExamples = append(sum.MissingExamples, fmt.Sprintf("session %d: %s-%d acked at version %d; participant %d (%s) has %s there",
							s.index, s.list[a.key.sender], a.key.n, a.version, p.index, p.id, got))
					}
				}
			}
		}
		// Versions a member never got (from its join to the session's newest).
		var newest uint64
		for version := range byVersion {
			if version > newest {
				newest = version
			}
		}
		for _, p := range s.members {
			if !p.opened || p.gaveUp.Load() {
				continue
			}
			if newest > p.joinVersion {
				sum.Missed += int(newest-p.joinVersion) - len(p.seen)
			}
		}
		s.mu.Unlock()
	}
	for _, p := range r.people {
		if p.opened {
			sum.Opened++
		}
		if p.reconnects > 0 {
			sum.Resumed++
		}
		if p.opened && (p.gaveUp.Load() || p.down.Load()) {
			sum.Lost++
		}
		sum.Events += len(p.seen)
		sum.Duplicated += p.duplicates
		sum.ResyncOverlap += p.resyncOverlap
		sum.Resyncs += p.resyncs
		sum.Reconnections += p.reconnects
		sum.StrayAcks += p.strayAcks
		sum.AckMismatches += p.ackMismatch
		resumes = append(resumes, p.resumeNs...)
		p.cmdMu.Lock()
		acks = append(acks, p.ackNs...)
		probes = append(probes, p.probeNs...)
		for _, c := range p.commands {
			sum.CommandsSent++
			switch {
			case c.acked:
				sum.CommandsAcked++
			case c.refused != "":
				sum.CommandsRefused++
			default:
				sum.CommandsUnacked++
			}
		}
		p.cmdMu.Unlock()
	}
	slow := make([]*session, 0, len(r.sessions))
	for _, s := range r.sessions {
		if s.slowest.latency > 0 {
			slow = append(slow, s)
		}
	}
	sort.Slice(slow, func(a, b int) bool { return slow[a].slowest.latency > slow[b].slowest.latency })
	if len(slow) > 3 {
		slow = slow[:3]
	}
	for _, s := range slow {
		f := s.slowest
		sum.SlowestFanOuts = append(sum.SlowestFanOuts, fmt.Sprintf("%.1f ms: session %d, %s at version %d, completed by participant %d on %s",
			float64(f.latency)/1e6, s.index, f.command, f.version, f.last, r.config.urls[f.url]))
	}
	fan, acks, probes, resumes = loadkit.Sort(fan), loadkit.Sort(acks), loadkit.Sort(probes), loadkit.Sort(resumes)
	sum.FanOutSamples = len(fan)
	sum.FanOutP50Ms, sum.FanOutP95Ms, sum.FanOutP99Ms, sum.FanOutMaxMs = loadkit.Percentile(fan, 50), loadkit.Percentile(fan, 95), loadkit.Percentile(fan, 99), loadkit.Percentile(fan, 100)
	sum.AckP50Ms, sum.AckP99Ms = loadkit.Percentile(acks, 50), loadkit.Percentile(acks, 99)
	sum.ProbeP50Ms, sum.ProbeP99Ms = loadkit.Percentile(probes, 50), loadkit.Percentile(probes, 99)
	sum.ResumeP50Ms, sum.ResumeP99Ms, sum.ResumeMaxMs = loadkit.Percentile(resumes, 50), loadkit.Percentile(resumes, 99), loadkit.Percentile(resumes, 100)
	for _, s := range r.sessions {
		holders := map[string][]int{}
		for _, p := range s.members {
			if p.opened {
				holders[p.id] = append(holders[p.id], p.index)
			}
		}
		for id, indices := range holders {
			if len(indices) > 1 {
				sum.SharedIDs = append(sum.SharedIDs, fmt.Sprintf("session %d: %s welcomed participants %v", s.index, id, indices))
			}
		}
	}
	sort.Strings(sum.SharedIDs)
	sum.OK = sum.Opened == sum.Participants && sum.Lost == 0 && len(sum.SharedIDs) == 0 && sum.CommandsMissing == 0 && sum.Duplicated == 0 && sum.AppliedTwice == 0 && sum.AckMismatches == 0 &&
		len(sum.DisagreeingSess) == 0 && sum.Missed == 0
}

func (r *runner) writeRecord(path string) error {
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(file, 1<<16)
	type command struct {
		ID      string `json:"id"`
		Version uint64 `json:"version"`
		Refused string `json:"refused,omitempty"`
	}
	type line struct {
		Index       int       `json:"index"`
		Session     int       `json:"session"`
		Participant string    `json:"participant"`
		Join        uint64    `json:"join_version"`
		Events      [][3]any  `json:"events"`
		Commands    []command `json:"commands"`
	}
	encoder := json.NewEncoder(w)
	for _, p := range r.people {
		l := line{Index: p.index, Session: p.sess.index, Participant: p.id, Join: p.joinVersion, Events: [][3]any{}, Commands: []command{}}
		p.sess.mu.Lock()
		for _, e := range p.seen {
			id := ""
			if e.tag >= 0 {
				id = p.sess.list[e.tag]
			} else {
				id = p.sess.list[e.sender] + "-" + strconv.FormatInt(e.n, 10)
			}
			l.Events = append(l.Events, [3]any{e.version, p.sess.list[e.sender], id})
		}
		p.sess.mu.Unlock()
		p.cmdMu.Lock()
		for _, c := range p.commands {
			l.Commands = append(l.Commands, command{ID: c.id, Version: c.version, Refused: c.refused})
		}
		p.cmdMu.Unlock()
		if err := encoder.Encode(l); err != nil {
			file.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

func report(s summary, format string) {
	if format == "json" {
		for _, value := range []*float64{&s.FanOutP50Ms, &s.FanOutP95Ms, &s.FanOutP99Ms, &s.FanOutMaxMs, &s.AckP50Ms, &s.AckP99Ms,
			&s.ProbeP50Ms, &s.ProbeP99Ms, &s.ResumeP50Ms, &s.ResumeP99Ms, &s.ResumeMaxMs} {
			if math.IsNaN(*value) {
				*value = -1
			}
		}
		encoded, _ := json.Marshal(s)
		fmt.Println(string(encoded))
		return
	}
	fmt.Printf("urls %s\n", strings.Join(s.URLs, ","))
	fmt.Printf("participants %d in %d sessions: %d opened in %.2f s, %d resumed, %d lost\n",
		s.Participants, s.Sessions, s.Opened, s.JoinSeconds, s.Resumed, s.Lost)
	fmt.Printf("commands %d sent, %d acked, %d refused, %d unacked, %d missing (measured %.1f s)\n",
		s.CommandsSent, s.CommandsAcked, s.CommandsRefused, s.CommandsUnacked, s.CommandsMissing, s.MeasuredSeconds)
	fmt.Printf("fan-out ms (send → every other member): p50 %.2f  p95 %.2f  p99 %.2f  max %.2f  (%d commands, %d incomplete)\n",
		s.FanOutP50Ms, s.FanOutP95Ms, s.FanOutP99Ms, s.FanOutMaxMs, s.FanOutSamples, s.FanOutIncomplete)
	fmt.Printf("ack ms: p50 %.2f  p99 %.2f; clock probe round trip ms: p50 %.2f  p99 %.2f\n", s.AckP50Ms, s.AckP99Ms, s.ProbeP50Ms, s.ProbeP99Ms)
	fmt.Printf("events %d applied, %d duplicated, %d missed (gaps not repaired), %d resyncs (%d overlapping), %d commands applied twice, %d ack mismatches, %d stray acks\n",
		s.Events, s.Duplicated, s.Missed, s.Resyncs, s.ResyncOverlap, s.AppliedTwice, s.AckMismatches, s.StrayAcks)
	fmt.Printf("reconnections %d; resume ms: p50 %.1f  p99 %.1f  max %.1f\n", s.Reconnections, s.ResumeP50Ms, s.ResumeP99Ms, s.ResumeMaxMs)
	if len(s.DisagreeingSess) == 0 {
		fmt.Println("order: every session's members agree")
	} else {
		fmt.Printf("order: %d sessions disagree: %v\n", len(s.DisagreeingSess), s.DisagreeingSess)
		for _, d := range s.Disagreements {
			fmt.Println("  " + d)
		}
	}
	if len(s.SharedIDs) > 0 {
		fmt.Printf("participant ids given to two participants: %d\n", len(s.SharedIDs))
		for i, shared := range s.SharedIDs {
			if i == 10 {
				break
			}
			fmt.Println("  " + shared)
		}
	}
	for _, slow := range s.SlowestFanOuts {
		fmt.Println("slowest fan-out: " + slow)
	}
	for _, m := range s.MissingExamples {
		fmt.Println("missing: " + m)
	}
	loadkit.PrintErrors(s.Errors, s.ErrorExamples)
	verdict := "ok"
	if !s.OK {
		verdict = "FAILED"
	}
	fmt.Printf("took %.2f s: %s\n", s.Seconds, verdict)
}

func main() {
	c := parseConfig()
	loadkit.Guard("groupload", c.deadline)

	r := &runner{
		config: c,
		start:  time.Now(),
		errors: loadkit.NewTally(),
		// Write buffers come from a pool: a connection holds one only while it writes.
		dialer: websocket.Dialer{HandshakeTimeout: c.dialTimeout, ReadBufferSize: 2048, WriteBufferSize: 2048, WriteBufferPool: &sync.Pool{}},
	}
	sessions := (c.participants + c.groupSize - 1) / c.groupSize
	r.sessions = make([]*session, sessions)
	for g := range r.sessions {
		r.sessions[g] = &session{index: g, token: c.tokens[g], names: map[string]int32{}, pending: map[cmdKey]*pendingFanOut{}}
	}
	r.people = make([]*participant, c.participants)
	for i := range r.people {
		s := r.sessions[i/c.groupSize]
		p := &participant{index: i, sess: s, name: c.name + "-" + strconv.Itoa(i), urlIndex: i % len(c.urls), run: r,
			unacked: map[string]*sentCommand{}, done: make(chan struct{})}
		s.members = append(s.members, p)
		r.people[i] = p
	}

	// Join: at most -in-flight at once, starts spread over -ramp.
	measureStart := make(chan struct{})
	slots := make(chan struct{}, c.inFlight)
	var joining sync.WaitGroup
	joinStart := time.Now()
	for i, p := range r.people {
		if c.ramp > 0 {
			time.Sleep(time.Until(joinStart.Add(time.Duration(int64(c.ramp) * int64(i) / int64(c.participants)))))
		}
		slots <- struct{}{}
		joining.Add(1)
		go func(p *participant) {
			defer func() { <-slots; joining.Done() }()
			conn, err := p.join(false)
			if err != nil {
				var refused *refusal
				if errors.As(err, &refused) {
					r.errors.Add("join-"+refused.code, err)
				} else {
					r.errors.Add(loadkit.Classify("join", err), err)
				}
				close(p.done)
				return
			}
			p.writeMu.Lock()
			p.conn = conn
			p.writeMu.Unlock()
			p.opened = true
			go p.serve(conn)
			go p.tick(measureStart)
		}(p)
	}
	joining.Wait()
	joinSeconds := time.Since(joinStart).Seconds()

	// The measured phase (said on stderr, so that a script can time a fault inside it).
	measured := time.Now()
	fmt.Fprintf(os.Stderr, "groupload: measured phase begins, %d participants joined in %.1f s\n", c.participants, joinSeconds)
	r.measuring.Store(true)
	close(measureStart)
	stop := make(chan struct{})
	if c.commandEvery > 0 {
		for g, s := range r.sessions {
			go r.commands(s, time.Duration(int64(c.commandEvery)*int64(g)/int64(sessions)), stop)
		}
	}
	time.Sleep(c.duration)
	close(stop)
	r.measuring.Store(false)
	measuredSeconds := time.Since(measured).Seconds()

	// Drain: until nothing is unacked, every fan-out is complete and nobody is down, or -drain.
	drainBy := time.Now().Add(c.drain)
	for time.Now().Before(drainBy) {
		busy := false
		for _, p := range r.people {
			if !p.opened || p.gaveUp.Load() {
				continue
			}
			p.cmdMu.Lock()
			if len(p.unacked) > 0 || p.down.Load() {
				busy = true
			}
			p.cmdMu.Unlock()
			if busy {
				break
			}
		}
		for _, s := range r.sessions {
			s.mu.Lock()
			if len(s.pending) > 0 {
				busy = true
			}
			s.mu.Unlock()
		}
		if !busy {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Let the last events reach everyone (a participant state acked to its sender is fanned out
	// to the others at the same moment, give or take the scheduler).
	time.Sleep(300 * time.Millisecond)

	// Close (bounded), then check what the readers recorded.
	r.closing.Store(true)
	for _, p := range r.people {
		p.writeMu.Lock()
		if p.conn != nil {
			p.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		}
		p.writeMu.Unlock()
	}
	closeBy := time.After(3 * time.Second)
	for _, p := range r.people {
		select {
		case <-p.done:
		case <-closeBy:
		}
	}
	for _, p := range r.people {
		p.writeMu.Lock()
		if p.conn != nil {
			p.conn.Close()
		}
		p.writeMu.Unlock()
	}
	for _, p := range r.people {
		select {
		case <-p.done:
		case <-time.After(2 * time.Second):
		}
	}

	s := summary{URLs: c.urls, Participants: c.participants, Sessions: sessions, JoinSeconds: joinSeconds, MeasuredSeconds: measuredSeconds,
		DisagreeingSess: []int{}, SharedIDs: []string{}, Disagreements: []string{}, MissingExamples: []string{}, SlowestFanOuts: []string{}}
	r.check(&s)
	s.Errors, s.ErrorExamples = r.errors.Snapshot()
	s.Seconds = time.Since(r.start).Seconds()
	if c.record != "" {
		if err := r.writeRecord(c.record); err != nil {
			fmt.Fprintf(os.Stderr, "groupload: -record: %v\n", err)
			s.OK = false
		}
	}
	report(s, c.format)
	if !s.OK {
		os.Exit(1)
	}
}

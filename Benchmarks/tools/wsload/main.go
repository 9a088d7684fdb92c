// Command wsload measures WebSocket fan-out latency: it opens N connections in groups of G, has
// each send its own hello, then for each of K rounds one member of every group sends a message
// and wsload times how long every other member of that group takes to receive it.
//
// Build (scripts/bootstrap --load does this, offline, against Debian's gorilla/websocket):
//
//	GO111MODULE=off GOPROXY=off GOPATH=/usr/share/gocode go build -o wsload .
//
// Templates (-hello, -send, -expect) replace {i} with the connection's index (0 … N-1), {g} with
// its group's index (connection i is in group i / G) and {r} with the round (0 … K-1); -send's
// {i} is the sender's. With -group-values FILE, {v} becomes line g of FILE for group g (a group's
// own invitation token, say). A receiver counts the round when a message containing -expect, with
// its own {g} and the round's {r}, arrives; it is missed if none does within -round-timeout. A
// connection that ends before wsload closes it is counted as lost and left out of later rounds.
// With -ping-every, every open connection also sends -ping that often (a server's keep-alive).
//
// Exit status: 0 when every connection opened, none was lost and nothing was missed (up to
// -max-missing), 1
// otherwise, 2 when the -deadline ran out (the process exits there and then), 64 on bad usage.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"../loadkit"
)

const (
	maxConnections = 50000
	maxRounds      = 100000
	maxTemplate    = 64 << 10
	maxDeadline    = time.Hour
)

type config struct {
	url          string
	connections  int
	groupSize    int
	inFlight     int
	ramp         time.Duration
	hello        string
	helloExpect  string
	send         string
	expect       string
	rounds       int
	gap          time.Duration
	stagger      time.Duration
	settle       time.Duration
	roundTimeout time.Duration
	dialTimeout  time.Duration
	deadline     time.Duration
	maxMessage   int64
	maxMissing   int
	format       string
	origin       string
	protocol     string
	headerToken  string
	keepOpen     time.Duration
	groupValues  []string
	pingEvery    time.Duration
	ping         string
}

var command = loadkit.Command{Name: "wsload", Usage: "wsload -url ws://HOST:PORT/PATH [options]"}

func usageError(format string, arguments ...any) { command.Fail(format, arguments...) }

func parseConfig() config {
	var c config
	var helloFile, groupValuesFile string
	flag.CommandLine = flag.NewFlagSet("wsload", flag.ContinueOnError)
	flag.StringVar(&c.url, "url", "", "WebSocket URL to dial (`ws://HOST:PORT/PATH`); required")
	flag.IntVar(&c.connections, "n", 100, "connections to open")
	flag.IntVar(&c.groupSize, "group", 10, "connections per group (at least 2)")
	flag.IntVar(&c.inFlight, "in-flight", 100, "at most this many handshakes at once")
	flag.DurationVar(&c.ramp, "ramp", 0, "spread the connection starts over this long (0: as fast as -in-flight allows)")
	flag.StringVar(&c.hello, "hello", `{"type":"hello","group":"{g}","participant":"p{i}"}`, "each connection's first message (template)")
	flag.StringVar(&helloFile, "hello-file", "", "read the first message's template from this file instead of -hello")
	flag.StringVar(&c.helloExpect, "hello-expect", "", "after the hello, wait for a message containing this (template) before the connection counts as open")
	flag.StringVar(&c.send, "send", `{"type":"say","group":"{g}","round":{r},"from":{i}}`, "what a round's sender sends (template)")
	flag.StringVar(&c.expect, "expect", `"round":{r},`, "the substring that marks a round's message at a receiver (template)")
	flag.IntVar(&c.rounds, "rounds", 10, "rounds; in round r member r mod G of each group sends")
	flag.DurationVar(&c.gap, "gap", 100*time.Millisecond, "pause between rounds")
	flag.DurationVar(&c.stagger, "stagger", 0, "spread a round's sends over this long, group by group (0: all at once)")
	flag.DurationVar(&c.settle, "settle", 500*time.Millisecond, "pause after every connection is open, before round 0")
	flag.DurationVar(&c.roundTimeout, "round-timeout", 5*time.Second, "how long a round waits for its messages")
	flag.DurationVar(&c.dialTimeout, "dial-timeout", 10*time.Second, "handshake timeout per connection")
	flag.DurationVar(&c.deadline, "deadline", 60*time.Second, "hard limit for the whole run: exit 2 when it passes")
	flag.Int64Var(&c.maxMessage, "max-message", 1<<20, "read limit per message, bytes")
	flag.IntVar(&c.maxMissing, "max-missing", 0, "exit 0 even with up to this many missed receipts")
	flag.StringVar(&c.format, "format", "text", "text or json")
	flag.StringVar(&c.origin, "origin", "", "Origin header to send")
	flag.StringVar(&c.protocol, "subprotocol", "", "Sec-WebSocket-Protocol to ask for")
	flag.StringVar(&c.headerToken, "bearer", "", "send this as a bearer token (Authorization header) with each handshake")
	flag.DurationVar(&c.keepOpen, "hold", 0, "keep the connections open this long after the last round")
	flag.StringVar(&groupValuesFile, "group-values", "", "a file of one value a line: line g replaces {v} in group g's templates")
	flag.DurationVar(&c.pingEvery, "ping-every", 0, "send -ping on every open connection this often (0: never)")
	flag.StringVar(&c.ping, "ping", `{"type":"ping"}`, "the keep-alive message of -ping-every (template)")
	command.Parse("Templates replace {i} (connection), {g} (group) and {r} (round).")
	if !strings.HasPrefix(c.url, "ws://") && !strings.HasPrefix(c.url, "wss://") {
		usageError("-url must be a ws:// or wss:// URL")
	}
	if c.connections < 2 || c.connections > maxConnections {
		usageError("-n must be from 2 to %d", maxConnections)
	}
	if c.groupSize < 2 || c.groupSize > c.connections {
		usageError("-group must be from 2 to -n")
	}
	if c.inFlight < 1 || c.inFlight > 10000 {
		usageError("-in-flight must be from 1 to 10000")
	}
	if c.rounds < 0 || c.rounds > maxRounds {
		usageError("-rounds must be from 0 to %d", maxRounds)
	}
	if c.deadline <= 0 || c.deadline > maxDeadline {
		usageError("-deadline must be positive and at most %v", maxDeadline)
	}
	if c.roundTimeout <= 0 || c.dialTimeout <= 0 || c.gap < 0 || c.stagger < 0 || c.settle < 0 || c.ramp < 0 || c.keepOpen < 0 {
		usageError("durations must not be negative, and the timeouts must be positive")
	}
	if c.maxMessage < 16 || c.maxMessage > 64<<20 {
		usageError("-max-message must be from 16 to %d", 64<<20)
	}
	if c.format != "text" && c.format != "json" {
		usageError("-format must be text or json")
	}
	if helloFile != "" {
		data, err := loadkit.ReadBounded(helloFile, maxTemplate)
		if err != nil {
			usageError("-hello-file: %v", err)
		}
		c.hello = strings.TrimRight(string(data), "\n")
	}
	if c.expect == "" {
		usageError("-expect must not be empty")
	}
	if c.pingEvery < 0 || (c.pingEvery > 0 && c.pingEvery < 10*time.Millisecond) {
		usageError("-ping-every must be 0 or at least 10ms")
	}
	if groupValuesFile != "" {
		data, err := loadkit.ReadBounded(groupValuesFile, 64<<20)
		if err != nil {
			usageError("-group-values: %v", err)
		}
		c.groupValues = strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		groups := (c.connections + c.groupSize - 1) / c.groupSize
		if len(c.groupValues) < groups {
			usageError("-group-values: %d lines for %d groups", len(c.groupValues), groups)
		}
		for g, value := range c.groupValues {
			if len(value) > maxTemplate {
				usageError("-group-values: line %d is longer than %d bytes", g+1, maxTemplate)
			}
		}
	}
	for _, template := range []string{c.hello, c.send, c.expect, c.helloExpect, c.ping} {
		if len(template) > maxTemplate {
			usageError("a template is longer than %d bytes", maxTemplate)
		}
	}
	return c
}

func (c *config) expand(template string, connection, group, round int) string {
	value := ""
	if group < len(c.groupValues) {
		value = c.groupValues[group]
	}
	return strings.NewReplacer(
		"{i}", strconv.Itoa(connection),
		"{g}", strconv.Itoa(group),
		"{r}", strconv.Itoa(round),
		"{v}", value,
	).Replace(template)
}

// round is what the receivers of the round in flight compare against; published atomically.
type round struct {
	index    int
	expected [][]byte // per group
	sentAt   []int64  // per group, monotonic nanoseconds since start
	sender   []int    // per group, the connection that sends
	pending  atomic.Int64
	complete chan struct{}
}

type connection struct {
	index, group int
	conn         *websocket.Conn
	writeMu      sync.Mutex // the round's sender and the pinger both write
	opened       bool
	abandoned    atomic.Bool // closed by wsload before it opened; its read error is not news
	latencies    []int64     // nanoseconds, written only by the reader
	lastRound    int
	readErr      error
	helloSeen    chan struct{}
	readerDone   chan struct{}
}

type runner struct {
	config  config
	start   time.Time
	current atomic.Pointer[round]
	closing atomic.Bool
	errors  *loadkit.Tally
	groups  int
	conns   []*connection
	dialer  websocket.Dialer
	header  http.Header
	dialNs  []int64
	dialMu  sync.Mutex
}

func (r *runner) since() int64 { return int64(time.Since(r.start)) }

func (r *runner) dial(c *connection) {
	began := time.Now()
	conn, response, err := r.dialer.Dial(r.config.url, r.header)
	if err != nil {
		if response != nil {
			err = fmt.Errorf("%w (HTTP %d)", err, response.StatusCode)
		}
		r.errors.Add(loadkit.Classify("dial", err), err)
		return
	}
	r.dialMu.Lock()
	r.dialNs = append(r.dialNs, int64(time.Since(began)))
	r.dialMu.Unlock()
	conn.SetReadLimit(r.config.maxMessage)
	c.conn = conn
	hello := r.config.expand(r.config.hello, c.index, c.group, 0)
	conn.SetWriteDeadline(time.Now().Add(r.config.dialTimeout))
	if err := conn.WriteMessage(websocket.TextMessage, []byte(hello)); err != nil {
		r.errors.Add("write-hello", err)
		conn.Close()
		c.conn = nil
		return
	}
	go r.read(c)
	if r.config.helloExpect != "" {
		select {
		case <-c.helloSeen:
		case <-c.readerDone:
			return
		case <-time.After(r.config.dialTimeout):
			r.errors.Add("hello-timeout", errors.New("no reply to the hello"))
			c.abandoned.Store(true)
			conn.Close()
			return
		}
	}
	c.opened = true
	if r.config.pingEvery > 0 {
		go r.keepAlive(c)
	}
}

// keepAlive sends the ping template every -ping-every until wsload closes the connections or
// this one ends; connections start at phases spread over the interval.
func (r *runner) keepAlive(c *connection) {
	every := r.config.pingEvery
	ping := []byte(r.config.expand(r.config.ping, c.index, c.group, 0))
	timer := time.NewTimer(time.Duration(int64(every) * int64(c.index%1000) / 1000))
	defer timer.Stop()
	for {
		select {
		case <-c.readerDone:
			return
		case <-timer.C:
		}
		if r.closing.Load() {
			return
		}
		c.writeMu.Lock()
		c.conn.SetWriteDeadline(time.Now().Add(r.config.dialTimeout))
		err := c.conn.WriteMessage(websocket.TextMessage, ping)
		c.writeMu.Unlock()
		if err != nil {
			if !r.closing.Load() {
				r.errors.Add("write-ping", err)
			}
			return
		}
		timer.Reset(every)
	}
}

func (r *runner) read(c *connection) {
	defer close(c.readerDone)
	var helloExpect []byte
	if r.config.helloExpect != "" {
		helloExpect = []byte(r.config.expand(r.config.helloExpect, c.index, c.group, 0))
	}
	for {
		_, message, err := c.conn.ReadMessage()
		now := r.since()
		if err != nil {
			if !r.closing.Load() && !c.abandoned.Load() {
				c.readErr = err
				r.errors.Add(loadkit.Classify("read", err), err)
			}
			return
		}
		if helloExpect != nil && bytes.Contains(message, helloExpect) {
			close(c.helloSeen)
			helloExpect = nil
			continue
		}
		current := r.current.Load()
		if current == nil || current.index == c.lastRound || current.sender[c.group] == c.index {
			continue
		}
		if bytes.Contains(message, current.expected[c.group]) {
			c.lastRound = current.index
			c.latencies = append(c.latencies, now-atomic.LoadInt64(&current.sentAt[c.group]))
			if current.pending.Add(-1) == 0 {
				close(current.complete)
			}
		}
	}
}

// alive keeps the members whose connection has not ended.
func alive(group []*connection) []*connection {
	var open []*connection
	for _, conn := range group {
		select {
		case <-conn.readerDone:
		default:
			open = append(open, conn)
		}
	}
	return open
}

type summary struct {
	URL            string            `json:"url"`
	Connections    int               `json:"connections"`
	Opened         int               `json:"opened"`
	Groups         int               `json:"groups"`
	GroupSize      int               `json:"group_size"`
	Rounds         int               `json:"rounds"`
	ConnectSeconds float64           `json:"connect_seconds"`
	HandshakeP50Ms float64           `json:"handshake_p50_ms"`
	HandshakeP99Ms float64           `json:"handshake_p99_ms"`
	Sent           int               `json:"sent"`
	Expected       int64             `json:"expected"`
	Received       int               `json:"received"`
	Missed         int64             `json:"missed"`
	Lost           int               `json:"lost"`
	P50Ms          float64           `json:"p50_ms"`
	P95Ms          float64           `json:"p95_ms"`
	P99Ms          float64           `json:"p99_ms"`
	MaxMs          float64           `json:"max_ms"`
	MeanMs         float64           `json:"mean_ms"`
	Errors         map[string]int    `json:"errors"`
	ErrorExamples  map[string]string `json:"error_examples"`
	Seconds        float64           `json:"seconds"`
}

func main() {
	c := parseConfig()
	// The hard deadline: whatever is stuck, the process ends here.
	loadkit.Guard("wsload", c.deadline)

	r := &runner{
		config: c,
		start:  time.Now(),
		errors: loadkit.NewTally(),
		groups: (c.connections + c.groupSize - 1) / c.groupSize,
		dialer: websocket.Dialer{HandshakeTimeout: c.dialTimeout, ReadBufferSize: 4096, WriteBufferSize: 4096},
		header: http.Header{},
	}
	if c.origin != "" {
		r.header.Set("Origin", c.origin)
	}
	if c.protocol != "" {
		r.dialer.Subprotocols = []string{c.protocol}
	}
	if c.headerToken != "" {
		r.header.Set("Authorization", "Bearer "+c.headerToken)
	}

	// Connect, at most c.inFlight handshakes at once, starts spread over c.ramp.
	r.conns = make([]*connection, c.connections)
	slots := make(chan struct{}, c.inFlight)
	var opening sync.WaitGroup
	connectStart := time.Now()
	for i := range r.conns {
		r.conns[i] = &connection{index: i, group: i / c.groupSize, lastRound: -1,
			helloSeen: make(chan struct{}), readerDone: make(chan struct{})}
		if c.ramp > 0 {
			due := connectStart.Add(time.Duration(int64(c.ramp) * int64(i) / int64(c.connections)))
			time.Sleep(time.Until(due))
		}
		slots <- struct{}{}
		opening.Add(1)
		go func(conn *connection) {
			defer func() { <-slots; opening.Done() }()
			r.dial(conn)
		}(r.conns[i])
	}
	opening.Wait()
	connectSeconds := time.Since(connectStart).Seconds()

	members := make([][]*connection, r.groups)
	opened := 0
	for _, conn := range r.conns {
		if conn.opened {
			members[conn.group] = append(members[conn.group], conn)
			opened++
		}
	}
	if opened > 0 {
		time.Sleep(c.settle)
	}

	// The rounds: one sender per group of at least two open members.
	sent := 0
	var expected int64
	for index := 0; index < c.rounds && opened > 0; index++ {
		current := &round{index: index, expected: make([][]byte, r.groups), sentAt: make([]int64, r.groups),
			sender: make([]int, r.groups), complete: make(chan struct{})}
		var want int64
		live := make([][]*connection, r.groups)
		for g, group := range members {
			live[g] = alive(group)
			group = live[g]
			current.sender[g] = -1
			current.expected[g] = []byte(c.expand(c.expect, 0, g, index))
			if len(group) >= 2 {
				current.sender[g] = group[index%len(group)].index
				want += int64(len(group) - 1)
			}
		}
		if want == 0 {
			break
		}
		current.pending.Store(want)
		expected += want
		r.current.Store(current)
		roundStart := time.Now()
		for g, group := range live {
			if current.sender[g] < 0 {
				continue
			}
			if c.stagger > 0 {
				time.Sleep(time.Until(roundStart.Add(time.Duration(int64(c.stagger) * int64(g) / int64(r.groups)))))
			}
			sender := group[index%len(group)]
			message := c.expand(c.send, sender.index, g, index)
			atomic.StoreInt64(&current.sentAt[g], r.since())
			sender.writeMu.Lock()
			sender.conn.SetWriteDeadline(time.Now().Add(c.roundTimeout))
			err := sender.conn.WriteMessage(websocket.TextMessage, []byte(message))
			sender.writeMu.Unlock()
			if err != nil {
				r.errors.Add("write", err)
				if current.pending.Add(-int64(len(group)-1)) == 0 {
					close(current.complete)
				}
				continue
			}
			sent++
		}
		select {
		case <-current.complete:
		case <-time.After(c.roundTimeout):
		}
		if index+1 < c.rounds {
			time.Sleep(c.gap)
		}
	}
	time.Sleep(c.keepOpen)

	// Close every connection (bounded), then collect what the readers recorded.
	r.closing.Store(true)
	r.current.Store(nil)
	for _, conn := range r.conns {
		if conn.conn == nil {
			continue
		}
		conn.conn.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	}
	closeBy := time.After(3 * time.Second)
	for _, conn := range r.conns {
		if conn.conn == nil {
			continue
		}
		select {
		case <-conn.readerDone:
		case <-closeBy:
		}
		conn.conn.Close()
	}
	for _, conn := range r.conns {
		if conn.conn != nil {
			<-conn.readerDone
		}
	}

	var samples []int64
	lost := 0
	for _, conn := range r.conns {
		samples = append(samples, conn.latencies...)
		if conn.opened && conn.readErr != nil {
			lost++
		}
	}
	loadkit.Sort(samples)
	loadkit.Sort(r.dialNs)
	var total int64
	for _, sample := range samples {
		total += sample
	}
	s := summary{
		URL: c.url, Connections: c.connections, Opened: opened, Groups: r.groups, GroupSize: c.groupSize,
		Rounds: c.rounds, ConnectSeconds: connectSeconds,
		HandshakeP50Ms: loadkit.Percentile(r.dialNs, 50), HandshakeP99Ms: loadkit.Percentile(r.dialNs, 99),
		Sent: sent, Expected: expected, Received: len(samples), Missed: expected - int64(len(samples)), Lost: lost,
		P50Ms: loadkit.Percentile(samples, 50), P95Ms: loadkit.Percentile(samples, 95), P99Ms: loadkit.Percentile(samples, 99),
		MaxMs:   loadkit.Percentile(samples, 100),
		Seconds: time.Since(r.start).Seconds(),
	}
	s.Errors, s.ErrorExamples = r.errors.Snapshot()
	s.MeanMs = math.NaN()
	if len(samples) > 0 {
		s.MeanMs = float64(total) / float64(len(samples)) / 1e6
	}
	report(s, c.format)
	if opened < c.connections || lost > 0 || s.Missed > int64(c.maxMissing) {
		os.Exit(1)
	}
}

func report(s summary, format string) {
	if format == "json" {
		// JSON has no NaN: a figure without samples is written as -1.
		for _, value := range []*float64{&s.P50Ms, &s.P95Ms, &s.P99Ms, &s.MaxMs, &s.MeanMs, &s.HandshakeP50Ms, &s.HandshakeP99Ms} {
			if math.IsNaN(*value) {
				*value = -1
			}
		}
		encoded, _ := json.Marshal(s)
		fmt.Println(string(encoded))
		return
	}
	fmt.Printf("url %s\n", s.URL)
	fmt.Printf("connections %d of %d opened in %.2f s (handshake p50 %.2f ms, p99 %.2f ms); %d groups of %d\n",
		s.Opened, s.Connections, s.ConnectSeconds, s.HandshakeP50Ms, s.HandshakeP99Ms, s.Groups, s.GroupSize)
	fmt.Printf("rounds %d: %d messages sent, %d receipts expected, %d received, %d missed; %d connections lost\n",
		s.Rounds, s.Sent, s.Expected, s.Received, s.Missed, s.Lost)
	fmt.Printf("fan-out latency ms: p50 %.3f  p95 %.3f  p99 %.3f  max %.3f  mean %.3f\n",
		s.P50Ms, s.P95Ms, s.P99Ms, s.MaxMs, s.MeanMs)
	loadkit.PrintErrors(s.Errors, s.ErrorExamples)
	fmt.Printf("took %.2f s\n", s.Seconds)
}

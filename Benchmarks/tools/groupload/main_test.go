package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// The protocol's goldens (Tests/GroupPlaybackTests/WireGoldens) are the server's encoding byte for
// byte; groupload reads the frequent messages by their keys, so it must read every golden right.
func golden(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "Tests", "GroupPlaybackTests", "WireGoldens", name))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(data, "\n")
}

func TestEvents(t *testing.T) {
	for _, c := range []struct {
		file, sender, desc string
		version            uint64
		n                  int64
	}{
		{"session-event-message.json", "p-carol", "", 13, 7},
		{"session-event-custom.json", "p-bob", "custom:example.chat", 14, -1},
		{"session-event-presence.json", "p-dana", "presence:lost:p-dana", 15, -1},
	} {
		message := golden(t, c.file)
		if !bytes.HasPrefix(message, prefixEvent) {
			t.Errorf("%s: not read as an event", c.file)
		}
		var ev parsedEvent
		if _, ok := parseEvent(message, &ev, nil); !ok {
			t.Fatalf("%s: unreadable", c.file)
		}
		if ev.version != c.version || string(ev.sender) != c.sender || ev.n != c.n || string(ev.desc) != c.desc {
			t.Errorf("%s: version %d sender %q n %d desc %q", c.file, ev.version, ev.sender, ev.n, ev.desc)
		}
	}
}

func TestWelcomeAckReply(t *testing.T) {
	message := golden(t, "session-welcome.json")
	if !bytes.HasPrefix(message, prefixWel) {
		t.Fatal("the welcome is not read as one")
	}
	var w welcomeMessage
	if err := json.Unmarshal(message, &w); err != nil {
		t.Fatal(err)
	}
	if w.Participant != "p-bob" || w.Secret != "r3sum3" || w.Version != 12 || len(w.Snapshot) != 1 {
		t.Fatalf("welcome: %+v", w)
	}
	var ev parsedEvent
	if _, ok := parseEvent(w.Snapshot[0], &ev, nil); !ok || ev.version != 11 || string(ev.sender) != "p-alice" || ev.n != 3 {
		t.Errorf("the snapshot's playback state: %+v", ev)
	}

	ack := golden(t, "session-ack.json")
	id, ok1 := stringAfter(ack, `"id":"`)
	version, ok2 := intAfter(ack, `"version":`)
	if !bytes.HasPrefix(ack, prefixAck) || !ok1 || !ok2 || string(id) != "bob-17" || version != 16 {
		t.Errorf("ack: %q %d", id, version)
	}
	reply := golden(t, "session-clock-reply.json")
	if sent, ok := intAfter(reply, `"sent":`); !bytes.HasPrefix(reply, prefixReply) || !ok || sent != 1500000123 {
		t.Errorf("clock.reply: sent %d", sent)
	}
	if !bytes.HasPrefix(golden(t, "session-pong.json"), prefixPong) || !bytes.HasPrefix(golden(t, "session-error.json"), prefixError) {
		t.Error("pong or error not recognized")
	}
}

// What groupload sends must be what the protocol's goldens say a participant sends, field for
// field (values aside): the hello with its resume.
func TestHello(t *testing.T) {
	p := &participant{sess: &session{token: "eyJhbGciOi.J9.sig"}, name: "Bob", id: "p-bob", secret: "r3sum3", last: 12}
	if got, want := string(p.hello(false)), string(golden(t, "session-hello.json")); got != want {
		t.Errorf("hello:\n got %s\nwant %s", got, want)
	}
	if got, want := string(p.hello(true)), string(golden(t, "session-hello-resume.json")); got != want {
		t.Errorf("hello with resume:\n got %s\nwant %s", got, want)
	}
}

// Events are applied strictly by version: a gap asks for a resync and waits for it, the resync's
// replay of what was there is not a duplicate, a repeat afterwards is.
func TestVersionOrder(t *testing.T) {
	s := &session{names: map[string]int32{}, pending: map[cmdKey]*pendingFanOut{}}
	p := &participant{sess: s, run: &runner{}, last: 1, idTag: s.intern([]byte("p1"))}
	event := func(version int, n int) []byte {
		return []byte(`{"type":"event","version":` + itoa(version) + `,"sender":"p2","custom":{"messageType":"groupload","body":{"n":` + itoa(n) + `}}}`)
	}
	for _, step := range []struct{ version, n int }{{2, 1}, {4, 3}, {5, 4}, {3, 2}, {4, 3}, {5, 4}, {5, 4}} {
		p.onEvent(event(step.version, step.n), nil)
	}
	if p.last != 5 || len(p.seen) != 4 || p.resyncs != 1 || p.duplicates != 1 || p.resyncing {
		t.Errorf("last %d, %d applied, %d resyncs, %d duplicates, resyncing %v", p.last, len(p.seen), p.resyncs, p.duplicates, p.resyncing)
	}
	for i, e := range p.seen {
		if e.version != uint64(i+2) || e.n != int64(i+1) || s.list[e.sender] != "p2" {
			t.Errorf("entry %d: %+v", i, e)
		}
	}
}

func itoa(v int) string { return strconv.Itoa(v) }

// A resuming welcome's events are applied in version order, after the participant's last.
func TestResumingWelcome(t *testing.T) {
	s := &session{names: map[string]int32{}, pending: map[cmdKey]*pendingFanOut{}}
	p := &participant{sess: s, run: &runner{}, last: 3, idTag: s.intern([]byte("p1"))}
	event := func(version, n int) json.RawMessage {
		return json.RawMessage(`{"type":"event","version":` + itoa(version) + `,"sender":"p2","custom":{"messageType":"groupload","body":{"n":` + itoa(n) + `}}}`)
	}
	p.welcome(&welcomeMessage{Version: 6, Snapshot: []json.RawMessage{event(5, 2), event(2, 9), event(4, 1), event(6, 3)}})
	if p.last != 6 || len(p.seen) != 3 {
		t.Fatalf("last %d, %d applied", p.last, len(p.seen))
	}
	for i, e := range p.seen {
		if e.version != uint64(i+4) || e.n != int64(i+1) {
			t.Errorf("entry %d: %+v", i, e)
		}
	}
}

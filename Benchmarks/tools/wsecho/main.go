// Command wsecho is the WebSocket server the load client and the Autobahn runner are checked
// against, in place of the group server:
//
//	/echo   sends every message back, text or binary (what Autobahn's fuzzing client expects);
//	        text that is not UTF-8 closes the connection with 1007, as RFC 6455 §8.1 asks
//	/group  the first message is a JSON hello naming a group ({"group":"7", …}); every later
//	        message goes to each member of that group but its sender
//
// It stops by itself after -deadline, and on SIGINT or SIGTERM, and prints its counts on stderr.
// A member whose outbound queue fills (a slow reader) is disconnected rather than waited for.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"
)

const outboundQueue = 256

type member struct {
	conn     *websocket.Conn
	outbound chan []byte
	gone     chan struct{}
	goneOnce sync.Once
}

func (m *member) leave() { m.goneOnce.Do(func() { close(m.gone) }) }

type server struct {
	upgrader  websocket.Upgrader
	limit     int64
	maxConns  int64
	open      atomic.Int64
	accepted  atomic.Int64
	refused   atomic.Int64
	received  atomic.Int64
	delivered atomic.Int64
	dropped   atomic.Int64

	mu     sync.Mutex
	groups map[string]map[*member]struct{}
}

func (s *server) upgrade(w http.ResponseWriter, r *http.Request) *websocket.Conn {
	if s.open.Add(1) > s.maxConns {
		s.open.Add(-1)
		s.refused.Add(1)
		http.Error(w, "too many connections", http.StatusServiceUnavailable)
		return nil
	}
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.open.Add(-1)
		return nil
	}
	s.accepted.Add(1)
	conn.SetReadLimit(s.limit)
	return conn
}

func (s *server) echo(w http.ResponseWriter, r *http.Request) {
	conn := s.upgrade(w, r)
	if conn == nil {
		return
	}
	defer s.open.Add(-1)
	defer conn.Close()
	for {
		kind, message, err := conn.ReadMessage()
		if err != nil {
			return
		}
		s.received.Add(1)
		if kind == websocket.TextMessage && !utf8.Valid(message) {
			conn.WriteControl(websocket.CloseMessage,
				websocket.FormatCloseMessage(websocket.CloseInvalidFramePayloadData, ""), time.Now().Add(time.Second))
			return
		}
		if err := conn.WriteMessage(kind, message); err != nil {
			return
		}
		s.delivered.Add(1)
	}
}

func (s *server) group(w http.ResponseWriter, r *http.Request) {
	conn := s.upgrade(w, r)
	if conn == nil {
		return
	}
	defer s.open.Add(-1)
	defer conn.Close()

	_, hello, err := conn.ReadMessage()
	if err != nil {
		return
	}
	var greeting struct {
		Group string `json:"group"`
	}
	if json.Unmarshal(hello, &greeting) != nil || greeting.Group == "" || len(greeting.Group) > 128 {
		conn.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "hello must name a group"), time.Now().Add(time.Second))
		return
	}
	self := &member{conn: conn, outbound: make(chan []byte, outboundQueue), gone: make(chan struct{})}
	s.join(greeting.Group, self)
	defer s.part(greeting.Group, self)

	go func() {
		defer conn.Close()
		for {
			select {
			case message := <-self.outbound:
				conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
				if conn.WriteMessage(websocket.TextMessage, message) != nil {
					self.leave()
					return
				}
				s.delivered.Add(1)
			case <-self.gone:
				return
			}
		}
	}()
	for {
		_, message, err := conn.ReadMessage()
		if err != nil {
			self.leave()
			return
		}
		s.received.Add(1)
		for _, other := range s.members(greeting.Group, self) {
			select {
			case other.outbound <- message:
			default:
				s.dropped.Add(1) // a slow reader: cut it off, it can reconnect
				other.leave()
				other.conn.Close()
			}
		}
	}
}

func (s *server) join(group string, m *member) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.groups[group] == nil {
		s.groups[group] = map[*member]struct{}{}
	}
	s.groups[group][m] = struct{}{}
}

func (s *server) part(group string, m *member) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.groups[group], m)
	if len(s.groups[group]) == 0 {
		delete(s.groups, group)
	}
}

// members copies the group's other members, so that sending happens without the lock.
func (s *server) members(group string, except *member) []*member {
	s.mu.Lock()
	defer s.mu.Unlock()
	others := make([]*member, 0, len(s.groups[group]))
	for m := range s.groups[group] {
		if m != except {
			others = append(others, m)
		}
	}
	return others
}

func main() {
	address := flag.String("addr", "127.0.0.1:9001", "listen on this `host:port` (port 0 picks one; the address is printed)")
	deadline := flag.Duration("deadline", 2*time.Minute, "stop after this long (at most 1h)")
	limit := flag.Int64("max-message", 16<<20, "largest message accepted, bytes (Autobahn 9.* sends 16 MiB)")
	maxConns := flag.Int64("max-conns", 19000, "refuse connections beyond this many (HTTP 503)")
	flag.Parse()
	if flag.NArg() > 0 || *deadline <= 0 || *deadline > time.Hour || *limit < 1 || *maxConns < 1 {
		fmt.Fprintln(os.Stderr, "usage: wsecho [-addr HOST:PORT] [-deadline 2m] [-max-message BYTES] [-max-conns N]")
		os.Exit(64)
	}
	s := &server{
		upgrader: websocket.Upgrader{ReadBufferSize: 4096, WriteBufferSize: 4096,
			CheckOrigin: func(*http.Request) bool { return true }},
		limit:    *limit,
		maxConns: *maxConns,
		groups:   map[string]map[*member]struct{}{},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", s.echo)
	mux.HandleFunc("/group", s.group)

	listener, err := net.Listen("tcp", *address)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wsecho: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("wsecho: listening on %s\n", listener.Addr())
	httpServer := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go httpServer.Serve(listener)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	select {
	case <-stop:
	case <-time.After(*deadline):
		fmt.Fprintln(os.Stderr, "wsecho: deadline passed")
	}
	listener.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	httpServer.Shutdown(ctx) // hijacked WebSockets are not waited for; the exit ends them
	cancel()
	fmt.Fprintf(os.Stderr, "wsecho: accepted=%d refused=%d received=%d delivered=%d dropped_slow=%d\n",
		s.accepted.Load(), s.refused.Load(), s.received.Load(), s.delivered.Load(), s.dropped.Load())
}

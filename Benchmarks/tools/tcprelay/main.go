// Command tcprelay relays a loopback TCP port to another for the scale-out benchmark, and on
// SIGUSR1 resets every connection through it and refuses new ones for CUT_MS milliseconds (each
// accepted and reset at once), as a network blip between one server and Redis would.
//
//	tcprelay LISTEN_PORT TARGET_PORT CUT_MS
//
// It prints "relaying" once listening and "cut N" at each cut (stdout), and stops on SIGTERM or
// SIGINT. Both ends are 127.0.0.1. Each direction of a connection is copied by its own goroutine
// with a 64 KiB buffer, so the relay adds a copy and a wake-up per chunk and nothing else.
package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"
)

type relay struct {
	target string
	cut    time.Duration

	mu            sync.Mutex
	conns         map[*net.TCPConn]struct{}
	refusingUntil time.Time
	cuts          int
}

// reset closes conn with SO_LINGER 0: the peer sees a reset, as after a network fault.
func reset(conn *net.TCPConn) {
	_ = conn.SetLinger(0)
	_ = conn.Close()
}

func (r *relay) track(conns ...*net.TCPConn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if time.Now().Before(r.refusingUntil) {
		return false
	}
	for _, c := range conns {
		r.conns[c] = struct{}{}
	}
	return true
}

func (r *relay) forget(conns ...*net.TCPConn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range conns {
		delete(r.conns, c)
	}
}

func (r *relay) cutNow() {
	r.mu.Lock()
	r.refusingUntil = time.Now().Add(r.cut)
	r.cuts++
	n := r.cuts
	for c := range r.conns {
		reset(c)
	}
	r.conns = map[*net.TCPConn]struct{}{}
	r.mu.Unlock()
	fmt.Printf("cut %d\n", n)
}

func (r *relay) serve(client *net.TCPConn) {
	r.mu.Lock()
	refusing := time.Now().Before(r.refusingUntil)
	r.mu.Unlock()
	if refusing {
		reset(client)
		return
	}
	upstreamConn, err := net.Dial("tcp", r.target)
	if err != nil {
		reset(client)
		return
	}
	upstream := upstreamConn.(*net.TCPConn)
	_ = client.SetNoDelay(true)
	_ = upstream.SetNoDelay(true)
	if !r.track(client, upstream) {
		reset(client)
		reset(upstream)
		return
	}
	var wg sync.WaitGroup
	pipe := func(from, to *net.TCPConn) {
		defer wg.Done()
		buffer := make([]byte, 64*1024)
		_, _ = io.CopyBuffer(to, from, buffer)
		// One side ended or failed: end both, so neither waits on a half-open relay.
		_ = from.Close()
		_ = to.Close()
	}
	wg.Add(2)
	go pipe(client, upstream)
	go pipe(upstream, client)
	wg.Wait()
	r.forget(client, upstream)
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: tcprelay LISTEN_PORT TARGET_PORT CUT_MS")
		os.Exit(2)
	}
	listenPort, err1 := strconv.Atoi(os.Args[1])
	targetPort, err2 := strconv.Atoi(os.Args[2])
	cutMS, err3 := strconv.Atoi(os.Args[3])
	if err1 != nil || err2 != nil || err3 != nil || listenPort <= 0 || listenPort > 65535 || targetPort <= 0 || targetPort > 65535 || cutMS < 0 {
		fmt.Fprintln(os.Stderr, "tcprelay: LISTEN_PORT and TARGET_PORT must be ports (1-65535), CUT_MS a number of milliseconds")
		os.Exit(2)
	}
	listener, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: listenPort})
	if err != nil {
		fmt.Fprintf(os.Stderr, "tcprelay: %v\n", err)
		os.Exit(1)
	}
	r := &relay{
		target: net.JoinHostPort("127.0.0.1", strconv.Itoa(targetPort)),
		cut:    time.Duration(cutMS) * time.Millisecond,
		conns:  map[*net.TCPConn]struct{}{},
	}
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGUSR1, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		for s := range signals {
			if s == syscall.SIGUSR1 {
				r.cutNow()
				continue
			}
			_ = listener.Close()
			os.Exit(0)
		}
	}()
	fmt.Println("relaying")
	for {
		conn, err := listener.AcceptTCP()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return // SIGTERM or SIGINT closed it
			}
			// Out of descriptors, or a connection reset before it was accepted: say so and go on,
			// rather than end the relay as if it had been asked to stop.
			fmt.Fprintf(os.Stderr, "tcprelay: accept: %v\n", err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		go r.serve(conn)
	}
}

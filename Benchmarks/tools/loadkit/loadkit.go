// Package loadkit is what the WebSocket load clients (wsload, groupload) share: the run's hard
// deadline, bounded file reads, error tallies and percentiles. They import it by its relative path
// ("../loadkit"), which GOPATH mode allows for code outside GOPATH (scripts/bootstrap --load).
package loadkit

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"os/signal"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

// Guard ends the process with status 2 when deadline passes, whatever is stuck, and with status 1
// on SIGINT or SIGTERM.
func Guard(program string, deadline time.Duration) {
	time.AfterFunc(deadline, func() {
		fmt.Fprintf(os.Stderr, "%s: deadline of %v passed; exiting\n", program, deadline)
		os.Exit(2)
	})
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-interrupts
		fmt.Fprintf(os.Stderr, "%s: interrupted\n", program)
		os.Exit(1)
	}()
}

// Command is a load client's command line: its name and its one-line usage.
type Command struct {
	Name, Usage string
}

// Fail reports a bad command line on stderr and exits with status 64.
func (c Command) Fail(format string, arguments ...any) {
	fmt.Fprintf(os.Stderr, c.Name+": "+format+"\n", arguments...)
	fmt.Fprintf(os.Stderr, "usage: %s (-h for the list)\n", c.Usage)
	os.Exit(64)
}

// Parse parses the process's arguments into flag.CommandLine, which the caller has filled (a
// flag set of c.Name that continues on error): -h exits 0, a bad flag or an argument 64. help is
// printed after the usage line, before the flags.
func (c Command) Parse(help string) {
	flag.CommandLine.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: %s\n", c.Usage)
		if help != "" {
			fmt.Fprintln(os.Stderr, help)
		}
		flag.PrintDefaults()
	}
	switch err := flag.CommandLine.Parse(os.Args[1:]); {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		os.Exit(64) // the flag package has printed the problem and the usage
	}
	if flag.NArg() > 0 {
		c.Fail("unexpected argument %q", flag.Arg(0))
	}
}

// ReadBounded reads the file at path, refusing one longer than limit bytes.
func ReadBounded(path string, limit int64) ([]byte, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is longer than %d bytes", path, limit)
	}
	return data, nil
}

// Tally counts errors by kind and keeps the first message of each kind.
type Tally struct {
	mu       sync.Mutex
	counts   map[string]int
	examples map[string]string
}

// NewTally is an empty tally.
func NewTally() *Tally {
	return &Tally{counts: map[string]int{}, examples: map[string]string{}}
}

// Add counts one error of kind; err (if any) is kept as the kind's example when it is the first.
func (t *Tally) Add(kind string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.counts[kind]++
	if _, seen := t.examples[kind]; !seen && err != nil {
		t.examples[kind] = err.Error()
	}
}

// Snapshot is a copy of the counts and the examples.
func (t *Tally) Snapshot() (counts map[string]int, examples map[string]string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	counts, examples = map[string]int{}, map[string]string{}
	for kind, n := range t.counts {
		counts[kind] = n
	}
	for kind, example := range t.examples {
		examples[kind] = example
	}
	return counts, examples
}

// PrintErrors writes one line per kind, sorted ("errors KIND N (first: …)"), or "errors none".
func PrintErrors(counts map[string]int, examples map[string]string) {
	kinds := make([]string, 0, len(counts))
	for kind := range counts {
		kinds = append(kinds, kind)
	}
	sort.Strings(kinds)
	if len(kinds) == 0 {
		fmt.Println("errors none")
	}
	for _, kind := range kinds {
		fmt.Printf("errors %s %d (first: %s)\n", kind, counts[kind], examples[kind])
	}
}

// Classify names a connection error for a tally: PHASE-close-CODE, PHASE-handshake, PHASE-timeout,
// PHASE-refused, PHASE-reset, PHASE-resources or PHASE-other.
func Classify(phase string, err error) string {
	var netErr net.Error
	var closeErr *websocket.CloseError
	switch {
	case errors.As(err, &closeErr):
		return fmt.Sprintf("%s-close-%d", phase, closeErr.Code)
	case errors.Is(err, websocket.ErrBadHandshake):
		return phase + "-handshake"
	case errors.As(err, &netErr) && netErr.Timeout():
		return phase + "-timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return phase + "-refused"
	case errors.Is(err, syscall.ECONNRESET):
		return phase + "-reset"
	case errors.Is(err, syscall.EADDRNOTAVAIL), errors.Is(err, syscall.EMFILE):
		return phase + "-resources"
	}
	return phase + "-other"
}

// Percentile is the nearest-rank percentile p of sorted samples (nanoseconds), in milliseconds;
// NaN without samples.
func Percentile(sorted []int64, p float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	if rank < 1 {
		rank = 1
	}
	return float64(sorted[rank-1]) / 1e6
}

// Sort sorts samples in place and returns them.
func Sort(samples []int64) []int64 {
	sort.Slice(samples, func(a, b int) bool { return samples[a] < samples[b] })
	return samples
}

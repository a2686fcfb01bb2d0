package demo

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// capture records what a replay wrote, in order, with the stream of each write.
type capture struct {
	mu     sync.Mutex
	merged bytes.Buffer
	out    bytes.Buffer
	err    bytes.Buffer
	writes []string // "out"/"err" per write
}

type streamWriter struct {
	c      *capture
	stderr bool
}

func (w streamWriter) Write(p []byte) (int, error) {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	w.c.merged.Write(p)
	if w.stderr {
		w.c.err.Write(p)
		w.c.writes = append(w.c.writes, "err")
	} else {
		w.c.out.Write(p)
		w.c.writes = append(w.c.writes, "out")
	}
	return len(p), nil
}

func (c *capture) stdout() streamWriter { return streamWriter{c, false} }
func (c *capture) stderr() streamWriter { return streamWriter{c, true} }

func envOf(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

// noSleep records the pauses it was asked for and returns at once.
type noSleep struct {
	mu     sync.Mutex
	pauses []time.Duration
}

func (s *noSleep) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.pauses = append(s.pauses, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *noSleep) total() time.Duration {
	var t time.Duration
	for _, d := range s.pauses {
		t += d
	}
	return t
}

// replay runs the demo in-process with a recording sleeper.
func replay(t *testing.T, args []string, env map[string]string) (*capture, *noSleep, int) {
	t.Helper()
	c, s := &capture{}, &noSleep{}
	code := run(context.Background(), args, c.stdout(), c.stderr(), envOf(env), s.sleep)
	return c, s, code
}

func mustRecording(t *testing.T, name string) []byte {
	t.Helper()
	data, err := readRecording(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// withoutBanner removes the first stdout line from the merged output and
// checks it is the banner.
func withoutBanner(t *testing.T, c *capture, scenario, label string) []byte {
	t.Helper()
	want := Banner(scenario, label) + "\n"
	merged := c.merged.Bytes()
	if !bytes.HasPrefix(merged, []byte(want)) || !strings.HasPrefix(c.out.String(), want) {
		t.Fatalf("output does not start with the banner %q:\n%.300s", want, merged)
	}
	return merged[len(want):]
}

type failingWriter struct {
	n     int // writes that succeed
	calls int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	w.calls++
	if w.calls > w.n {
		return 0, errors.New("write |1: broken pipe")
	}
	return len(p), nil
}

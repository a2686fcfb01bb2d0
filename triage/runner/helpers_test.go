package runner

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/internal/proc"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// TestMain lets the test binary act as a run's reaper and as "the tool" in
// the tests that kill the tool itself.
func TestMain(m *testing.M) {
	MaybeRunReaper()
	if os.Getenv("TT_HELPER_TOOL") == "1" {
		os.Exit(helperTool())
	}
	os.Exit(m.Run())
}

// helperTool is a minimal torchtriage: it starts one run of TT_ARGV with
// signal handling, prints its directory and waits for it.
func helperTool() int {
	if os.Getenv("TT_NO_REAPER") == "1" { // a tool whose main() does not call MaybeRunReaper
		reaperEnabled.Store(false)
	}
	stop := KillAllOnSignals(nil)
	defer stop()
	store, err := runs.OpenStore(os.Getenv("TT_STORE"))
	if err != nil {
		fmt.Println("ERR", err)
		return 1
	}
	grace, _ := time.ParseDuration(os.Getenv("TT_GRACE"))
	r, err := Start(context.Background(), store, runs.Spec{
		Argv: strings.Split(os.Getenv("TT_ARGV"), " "), Preset: "eager", Grace: grace, Stall: -1,
	}, nil)
	if err != nil {
		fmt.Println("ERR", err)
		return 1
	}
	fmt.Println("RUNDIR", r.Dir)
	r.Wait()
	return 0
}

func testdata(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newStore(t *testing.T) *runs.Store {
	t.Helper()
	s, err := runs.OpenStore(filepath.Join(t.TempDir(), "runs"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) sink(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

func (r *recorder) all() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

func (r *recorder) kinds(runID int) []EventKind {
	var out []EventKind
	for _, e := range r.all() {
		if e.RunID == runID && e.Kind != EventOutput {
			out = append(out, e.Kind)
		}
	}
	return out
}

// output joins the Data of a run's output events on one stream.
func (r *recorder) output(runID int, stream string) string {
	var b strings.Builder
	for _, e := range r.all() {
		if e.RunID == runID && e.Kind == EventOutput && e.Stream == stream {
			b.Write(e.Data)
		}
	}
	return b.String()
}

// waitFor polls cond every 20ms until it holds or d passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out after %v waiting for %s", d, what)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

var pidLineRE = regexp.MustCompile(`(?m)^(LEADER|CHILD|GRAND|SETSID|ESCAPED) (\d+)$`)

// familyPids waits for family.sh to report its five pids in stdout.log.
func familyPids(t *testing.T, runDir string) map[string]int {
	t.Helper()
	pids := map[string]int{}
	waitFor(t, 10*time.Second, "family pids", func() bool {
		data, _ := os.ReadFile(filepath.Join(runDir, "stdout.log"))
		for _, m := range pidLineRE.FindAllStringSubmatch(string(data), -1) {
			pids[m[1]], _ = strconv.Atoi(m[2])
		}
		return len(pids) == 5
	})
	return pids
}

// processGone reports whether pid no longer runs (absent or a zombie).
func processGone(pid int) bool {
	state, _, ok := procStat(pid)
	return !ok || !proc.Running(state)
}

func assertAllGone(t *testing.T, pids map[string]int, within time.Duration) {
	t.Helper()
	for name, pid := range pids {
		waitFor(t, within, fmt.Sprintf("%s (pid %d) to be gone", name, pid), func() bool { return processGone(pid) })
	}
}

// firstLine reads lines from a helper's stdout until one starts with prefix.
func firstLine(t *testing.T, sc *bufio.Scanner, prefix string) string {
	t.Helper()
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), prefix); ok {
			return rest
		}
		if strings.HasPrefix(sc.Text(), "ERR") {
			t.Fatal(sc.Text())
		}
	}
	t.Fatalf("helper ended without a %q line", prefix)
	return ""
}

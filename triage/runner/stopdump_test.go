package runner

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// A run the timeout stops dumps its stacks first: a rank blocked in a collective (C++, the GIL released) never
// sees SIGINT as a KeyboardInterrupt, so the stack dump is all that says where it waited
// (testdata/recorded/diverged-hang).
func TestTimeoutDumpsStacksBeforeTheInterrupt(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	store := newStore(t)
	spec := runs.Spec{Preset: "eager", Grace: 2 * time.Second, Stall: -1, Timeout: 1500 * time.Millisecond}
	spec.StackTargets = func(runDir string) []int { return []int{readPid(runDir, "dumper.pid")} }
	spec.Argv = []string{"sh", testdata(t, "stopdump.sh"), filepath.Join(store.Dir, "0001-eager")}
	r, err := Start(context.Background(), store, spec, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Cancel()
	m := r.Wait()
	if m.State != runs.StateTimedOut {
		t.Errorf("state %s, want timed_out", m.State)
	}
	out := rec.output(r.ID, "stdout")
	dump, stop := strings.Index(out, "STACKS"), strings.Index(out, "INTERRUPTED")
	if dump < 0 || stop < 0 || dump > stop {
		t.Errorf("stdout %q: want the stack dump, then the interrupt", out)
	}
}

// The ranks' dumps are asked one at a time: processes sharing a pipe that dump at once write into each other's lines
// (testdata/dist-hangs/runs, h01 on 2.14).
func TestSignalEachLeavesGaps(t *testing.T) {
	var calls []string
	signal := func(pid int) bool { calls = append(calls, "signal "+strconv.Itoa(pid)); return pid != 2 }
	sleep := func(d time.Duration) { calls = append(calls, "sleep "+d.String()) }
	if n := signalEach([]int{1, 2, 3}, signal, sleep); n != 2 {
		t.Errorf("reached %d, want 2", n)
	}
	want := "signal 1,sleep 100ms,signal 2,sleep 100ms,signal 3"
	if got := strings.Join(calls, ","); got != want {
		t.Errorf("%s, want %s", got, want)
	}
	calls = nil
	pids := make([]int, 21)
	signalEach(pids, signal, sleep)
	if calls[1] != "sleep 50ms" {
		t.Errorf("21 processes: %v, want gaps of 50ms (1s in all)", calls[:3])
	}
}

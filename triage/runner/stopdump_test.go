package runner

import (
	"context"
	"path/filepath"
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

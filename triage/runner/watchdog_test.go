package runner

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// A stall while the probe says a rank compiles is reported with what compiles (not as a hang).
func TestStallWhileCompiling(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	var asked string
	r, err := Start(context.Background(), newStore(t), runs.Spec{
		Argv: []string{"sh", testdata(t, "stall.sh"), "1"}, Preset: "eager", Stall: 300 * time.Millisecond,
		Compiling: func(runDir string, now time.Time) string {
			asked = runDir
			return "rank 0 compiling `forward` for 0s"
		},
	}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Wait()
	if len(m.Stalls) != 1 || m.Stalls[0].Compiling != "rank 0 compiling `forward` for 0s" {
		t.Errorf("stalls %+v, want one that says what compiled", m.Stalls)
	}
	if asked != r.Dir {
		t.Errorf("Compiling asked about %q, want the run dir %q", asked, r.Dir)
	}
	found := false
	for _, e := range rec.all() {
		if e.Kind == EventStalled {
			found = e.Note == "rank 0 compiling `forward` for 0s"
		}
	}
	if !found {
		t.Error("EventStalled does not say what compiled")
	}
}

// A compiling stall whose compile ends without output is reported again, with nothing compiling.
func TestWatchdogRecheck(t *testing.T) {
	t0 := time.Unix(1000, 0)
	w := newWatchdog(time.Second, t0)
	if !w.check(t0.Add(2 * time.Second)) {
		t.Fatal("no stall")
	}
	if !w.compiling("rank 1 compiling", t0.Add(2*time.Second)) || w.recheck(t0.Add(3*time.Second)) || !w.recheck(t0.Add(8*time.Second)) {
		t.Fatal("recheck schedule")
	}
	if !w.compiling("", t0.Add(8*time.Second)) || w.events[0].Compiling != "" || w.recheck(t0.Add(20*time.Second)) {
		t.Errorf("after the compile ended: %+v", w.events)
	}
}

// Output the tool provoked (the stack dump it asked for, the reaction to its SIGINT) is not the program's
// progress: the stall goes on, and ends with the run ("stopped while stalled"), not at the dump or the signal.
func TestStallNotEndedByToolsOwnDoing(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	store := newStore(t)
	spec := runs.Spec{Preset: "eager", Grace: testGrace, Stall: 300 * time.Millisecond}
	spec.StackTargets = func(runDir string) []int { return []int{readPid(runDir, "dumper.pid")} }
	spec.Argv = []string{"sh", testdata(t, "provoked.sh"), filepath.Join(store.Dir, "0001-eager")}
	r, err := Start(context.Background(), store, spec, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Cancel()
	waitFor(t, 5*time.Second, "the stall", func() bool { return r.State() == runs.StateStalled })
	if n, err := r.DumpStacks(); err != nil || n != 1 {
		t.Fatalf("DumpStacks = %d, %v", n, err)
	}
	waitFor(t, 5*time.Second, "the stack dump", func() bool {
		return strings.Contains(rec.output(r.ID, "stdout"), "most recent call first")
	})
	time.Sleep(3 * tailInterval)
	if s := r.State(); s != runs.StateStalled {
		t.Errorf("after the requested stack dump the run is %s, want still stalled", s)
	}
	r.Cancel()
	m := r.Wait()
	if !strings.Contains(rec.output(r.ID, "stdout"), "KeyboardInterrupt") {
		t.Fatal("the fake repro did not react to SIGINT")
	}
	if kinds := rec.kinds(r.ID); slices.Contains(kinds, EventResumed) {
		t.Errorf("events %v: the dump or the SIGINT resumed the stall", kinds)
	}
	if len(m.Stalls) != 1 || m.Stalls[0].Resumed != nil || m.Stalls[0].Ended == nil {
		t.Errorf("stalls %+v, want one that never resumed and ended with the run", m.Stalls)
	}
}

// The watchdog's own rules: a dump's burst is not progress, the program's next output after it is; nothing
// after the tool began stopping the run resumes a stall or starts one.
func TestWatchdogProvokedOutput(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	w := newWatchdog(time.Second, t0)
	if !w.check(at(2 * time.Second)) {
		t.Fatal("no stall")
	}
	w.provoked(at(3 * time.Second))
	if w.output(at(3*time.Second+100*time.Millisecond)) || w.output(at(4*time.Second)) {
		t.Error("the requested dump resumed the stall")
	}
	if !w.stalled || !w.last.Equal(t0) {
		t.Errorf("stalled %v since %v, want still stalled since the start", w.stalled, w.last)
	}
	if !w.output(at(9 * time.Second)) {
		t.Error("the program's own output after the dump did not resume the stall")
	}
	w.check(at(11 * time.Second))
	w.stopping()
	if w.output(at(12*time.Second)) || !w.stalled {
		t.Error("the reaction to the tool's SIGINT resumed the stall")
	}
	w.end(at(13 * time.Second))
	if e := w.events[1]; e.Resumed != nil || e.Ended == nil || !e.Ended.Equal(at(13*time.Second)) {
		t.Errorf("stall %+v, want ended with the run", e)
	}
	w2 := newWatchdog(time.Second, t0)
	w2.stopping()
	if w2.check(at(5 * time.Second)) {
		t.Error("a stall started while the tool was stopping the run")
	}
}

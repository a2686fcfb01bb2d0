package runner

import (
	"context"
	"testing"
	"time"
)

// A stall while the probe says a rank compiles is reported with what compiles (not as a hang).
func TestStallWhileCompiling(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	var asked string
	r, err := Start(context.Background(), newStore(t), Spec{
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

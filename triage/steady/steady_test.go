package steady

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
)

// The warm-up a run is judged with: its own (--warmup-steps 5 when launched), check's --warmup-steps over it
// (WithWarmup), else DefaultWarmupSteps. The recompile at step 30 is past a warm-up of 30 steps, inside one of 31.
func TestOfWarmupSteps(t *testing.T) {
	logs, errs := probe.ReadStepLogs(testlogs.Path(t, "recorded", "after-warmup", "runs", "0001-breaks"))
	if len(errs) > 0 || len(logs) != 1 {
		t.Fatal(logs, errs)
	}
	five := 5
	run := &report.RunFacts{Steps: logs, WarmupSteps: &five}
	for _, c := range []struct {
		k      *int
		warmup int
		events int
	}{{nil, 5, 1}, {ptr(30), 30, 1}, {ptr(31), 31, 0}} {
		a := Of(run.WithWarmup(c.k), -1)
		if a.WarmupSteps != c.warmup || len(a.Events) != c.events || !a.Judged() {
			t.Errorf("warm-up %v: %+v", c.k, a)
		}
	}
	if a := Of(&report.RunFacts{Steps: logs}, -1); a.WarmupSteps != DefaultWarmupSteps {
		t.Errorf("no warm-up given: %d, want %d", a.WarmupSteps, DefaultWarmupSteps)
	}
	a := Of(run, -1)
	if got := a.Summary(); !strings.Contains(got, "after warm-up (5 steps, by SGD.step()): 1 recompile at step 30: size of x changed 8 → 5") {
		t.Errorf("summary %q", got)
	}
	if a.StepsSeen != 40 || a.Compiles != 3 {
		t.Errorf("steps seen %d, compiles %d: want 40 and 3 (forward, backward, the recompile)", a.StepsSeen, a.Compiles)
	}
	// the forward's backward compiled at step 0, in the warm-up: one event after it, the recompile
	if len(a.Events) != 1 {
		t.Errorf("events %+v", a.Events)
	}
}

func ptr(k int) *int { return &k }

// A run of 40 optimizer steps (0002: full batches) got past a warm-up of 39 steps (step 39 ran), not past one of
// 40: nothing compiled after either, and only the first is a steady state to judge.
func TestAfterWarmupReached(t *testing.T) {
	logs, errs := probe.ReadStepLogs(testlogs.Path(t, "recorded", "after-warmup", "runs", "0002-breaks"))
	if len(errs) > 0 || len(logs) != 1 {
		t.Fatal(logs, errs)
	}
	for k, want := range map[int]bool{39: true, 40: false} {
		a := Of(&report.RunFacts{Steps: logs, WarmupSteps: ptr(k)}, -1)
		if a.Reached() != want || len(a.Events) != 0 || a.StepsSeen != 40 {
			t.Errorf("warm-up %d: reached %v, want %v (%+v)", k, a.Reached(), want, a)
		}
	}
}

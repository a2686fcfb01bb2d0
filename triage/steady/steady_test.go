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

// A lazy backward compiled in the step of its forward's recompile is part of that recompile (Backward set), not a
// cause of its own; one whose forward compiled at another step is its own event; a CUDA-graph recording (2.11+'s
// trigger) is its own kind. Lines as the probe writes them (probe.ParseStepLog).
func TestOfFoldsTheBackwardIntoItsForward(t *testing.T) {
	l, err := probe.ParseStepLog([]byte(`{"compile_id": "0/0", "ev": "compile", "frame": "f", "file": "/t.py", "line": 3, "marker": null, "opt": 0, "reason": null, "t": 1, "trigger": "DYNAMO"}
{"compile_id": "0/1", "ev": "compile", "frame": "f", "file": "/t.py", "line": 3, "marker": null, "opt": 30, "reason": "0/0: tensor 'x' size mismatch at index 0. expected 8, actual 5", "t": 2, "trigger": "DYNAMO"}
{"compile_id": "0/1", "ev": "compile", "frame": "", "file": "", "line": 0, "marker": null, "opt": 30, "reason": null, "t": 3, "trigger": "LAZY_BACKWARD"}
{"compile_id": "1/0", "ev": "compile", "frame": "", "file": "", "line": 0, "marker": null, "opt": 31, "reason": null, "t": 4, "trigger": "LAZY_BACKWARD"}
{"compile_id": "0/1", "ev": "compile", "frame": "", "file": "", "line": 0, "marker": null, "opt": 32, "reason": null, "t": 5, "trigger": "CUDAGRAPH_RECORDING"}
{"ev": "end", "marker": null, "opt": 40, "optimizer": "SGD", "t": 6}
`))
	if err != nil {
		t.Fatal(err)
	}
	a := Of(&report.RunFacts{Steps: []probe.StepLog{l}, WarmupSteps: ptr(5)}, -1)
	if len(a.Events) != 3 {
		t.Fatalf("events %+v", a.Events)
	}
	if e := a.Events[0]; e.Kind != Recompile || !e.Backward || e.Step != 30 || e.Why() != "size of x changed 8 → 5" {
		t.Errorf("recompile %+v", e)
	}
	if e := a.Events[1]; e.Kind != Backward || e.Step != 31 {
		t.Errorf("backward %+v", e)
	}
	if e := a.Events[2]; e.Kind != Cudagraph || e.Step != 32 {
		t.Errorf("recording %+v", e)
	}
}

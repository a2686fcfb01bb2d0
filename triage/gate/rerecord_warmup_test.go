package gate_test

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// recordingSteps is one process's steps file as the probe writes it (triage/probe/steps.go), placed by hand: graph
// 0/0 compiled at step 0 and CUDA graphs recorded for it (the CUDAGRAPH_RECORDING trigger, which the H100 runs of
// testdata/gpu-e2e show the probe sees) at the steps given. No GPU run with steps is recorded yet: this is
// synthetic, in the probe's own format.
func recordingSteps(at ...int) []probe.StepLog {
	evs := []probe.StepEvent{{Ev: "compile", Trigger: probe.TriggerDynamo, CompileID: "0/0", Frame: "f", File: "g13b.py", Line: 10}}
	for _, s := range at {
		evs = append(evs, probe.StepEvent{Ev: "compile", Opt: s, T: float64(s), Trigger: probe.TriggerCudagraph, CompileID: "0/0", Frame: "f",
			File: "g13b.py", Line: 10})
	}
	return []probe.StepLog{{Rank: 0, NoRank: true, Events: evs, Ended: true, Opt: 40, Optimizer: "SGD"}}
}

// --max-cudagraph-rerecords N counts after warm-up when a warm-up is named (the run's or check's --warmup-steps,
// or --no-compile-after-warmup): each compiled graph's CUDA-graph recordings at or past the warm-up, against N.
// The log (g13b, real H100 2.11: 3 re-recordings in the whole run) is the same each time; only the warm-up and
// the steps differ. Before, the whole run's re-recordings were counted whatever the warm-up: recordings made while
// warming up failed a steady-state budget.
func TestMaxCudagraphRerecordsAfterWarmup(t *testing.T) {
	log := triagetest.Fixture(t, "torch-2.11-cuda/g13b_cg_rerecord_limit_noinline.perf.log")
	five, two := 5, 2
	run := func(warmup *int, at ...int) *report.RunFacts {
		return &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogs: "perf_hints,cudagraphs,graph_breaks,recompiles",
			TorchLogsSet: true, Steps: recordingSteps(at...), WarmupSteps: warmup}
	}
	rules := gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, MaxCudagraphRerecords: &two}
	for _, c := range []struct {
		name   string
		run    *report.RunFacts
		pass   bool
		saying string
	}{
		// no warm-up named: the whole run's 3 re-recordings > 2, as before
		{"no warm-up named", run(nil, 1, 2, 3, 30), false, "3 re-recordings > 2"},
		// warm-up of 5 steps: steps 1-3 are warm-up; one recording of 0/0 after it
		{"one recording after warm-up", run(&five, 1, 2, 3, 30), true, ""},
		// three recordings of 0/0 after warm-up > 2
		{"three recordings after warm-up", run(&five, 1, 10, 20, 30), false, "3 CUDA-graph recordings of graph 0/0 after warm-up (5 steps, by SGD.step()) > 2"},
	} {
		a := triagetest.AnalyzeRun(t, log, c.run)
		res := gate.Check(a, rules)
		var msgs []string
		for _, f := range res.Failures {
			msgs = append(msgs, f.Message)
		}
		if res.Passed != c.pass || !strings.Contains(strings.Join(msgs, "\n"), c.saying) {
			t.Errorf("%s: passed %v, failures %q, not evaluated %v", c.name, res.Passed, msgs, res.NotEvaluated)
		}
		if c.run.WarmupSteps != nil && !strings.Contains(res.SteadyState, "after warm-up (5 steps, by SGD.step())") {
			t.Errorf("%s: steady state %q", c.name, res.SteadyState)
		}
	}
}

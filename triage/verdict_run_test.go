package triage_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

func analyzeRun(t *testing.T, path string, run *report.RunFacts) *triage.Analysis {
	t.Helper()
	rep, _, err := triage.BuildReport([]string{path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	set, _ := playbooks.Builtin()
	return triage.AnalyzeRun(rep, set, nil, run)
}

// What the tool or the launcher did is never the program's fault, and nothing from nothing is never steady.
func TestVerdictOfStoppedAndUnstartedRuns(t *testing.T) {
	interrupted := filepath.Join("..", "testdata", "realtorch", "r21_interrupted.triage.log")
	raised := filepath.Join("..", "testdata", "realtorch", "r22_plain_raise.triage.log")
	code := 1
	cases := []struct {
		name, path string
		run        *report.RunFacts
		state      string
		want       string // in the summary
	}{
		{"cancelled by torchtriage", interrupted, &report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "cancelled", TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true},
			triage.StateStopped, "stopped by torchtriage (cancelled) before the run finished; what it printed: 1 graph break"},
		{"timed out", interrupted, &report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "timed out"}, triage.StateStopped, "stopped by torchtriage (timed out)"},
		{"interrupt in a log alone", interrupted, nil, triage.StateStopped, "a process was interrupted (KeyboardInterrupt); the log does not say by whom"},
		{"launch failed", "", &report.RunFacts{Outcome: report.OutcomeDidNotStart, Error: `exec: "pyhton": executable file not found in $PATH`}, triage.StateDidNotStart, `did not start: exec: "pyhton"`},
		{"died before torch", raised, &report.RunFacts{Outcome: report.OutcomeFailed, ExitCode: &code}, triage.StateDidNotStart, "did not start: the command exited with code 1 before any torch output"},
		{"a raise in a log alone", raised, nil, triage.StateNoEvidence, "no torch output at all; what it printed: 1 process crashed"},
	}
	for _, c := range cases {
		var a *triage.Analysis
		if c.path == "" {
			a = triage.AnalyzeRun(report.NewAggregator().Report(), nil, nil, c.run)
		} else {
			a = analyzeRun(t, c.path, c.run)
		}
		if a.Verdict.State != c.state || a.Verdict.Steady || !strings.Contains(a.Verdict.Summary, c.want) {
			t.Errorf("%s: %s %q, want %s %q", c.name, a.Verdict.State, a.Verdict.Summary, c.state, c.want)
		}
		// an interrupt (the tool's SIGINT) is not an error of the program
		if c.path == interrupted {
			if n := len(triage.FindingsOf(a, findings.KindCompileError)) + len(triage.FindingsOf(a, findings.KindRuntimeError)); n != 0 {
				t.Errorf("%s: %d error finding(s) for an interrupt", c.name, n)
			}
		}
	}
	// the program's own raise is what killed it: a runtime error, named as the failure
	a := analyzeRun(t, raised, nil)
	if a.Report.Counts.RuntimeErrors != 1 || a.Verdict.FirstFailure != "the process failed: RuntimeError: config file missing: train.yaml (/work/main/testdata/realtorch/r22_plain_raise.py:4)" {
		t.Errorf("plain raise: %d runtime errors, first failure %q", a.Report.Counts.RuntimeErrors, a.Verdict.FirstFailure)
	}
}

// In a torchrun job the ranks fail one after another; the headline is the one torchrun calls the root cause,
// not its ChildFailedError summary nor the rank that only died of the abort.
func TestFirstFailureOfDistributedJob(t *testing.T) {
	a := analyzeRun(t, Fx("torch-2.11-cuda/g09a_nccl_same_gpu.triage.log"), nil)
	ff := a.Report.FirstFailure
	if ff == nil || ff.Rank != 1 || ff.By != "root_cause" || ff.Of != 2 || ff.Class != "torch.distributed.DistBackendError" {
		t.Fatalf("first failure %+v", ff)
	}
	if !strings.HasPrefix(a.Verdict.FirstFailure, "rank 1 failed first (torchrun's root cause): torch.distributed.DistBackendError: Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 60") {
		t.Errorf("verdict first failure %q", a.Verdict.FirstFailure)
	}
	var buf strings.Builder
	render.WriteReportText(&buf, a, text.Options{Width: 200})
	if !strings.Contains(buf.String(), "First failure: rank 1 failed first") {
		t.Errorf("text report has no first failure:\n%s", buf.String())
	}
	buf.Reset()
	render.WriteMarkdown(&buf, a)
	if !strings.Contains(buf.String(), "**First failure:** rank 1 failed first") || !strings.Contains(buf.String(), "**Verdict:** not steady") {
		t.Errorf("markdown:\n%s", buf.String())
	}
	j, _ := json.Marshal(a.Report)
	if !strings.Contains(string(j), `"first_failure":{"class":"torch.distributed.DistBackendError"`) {
		t.Errorf("json: %s", j)
	}
	// no failure: null, and no headline
	a = analyzeRun(t, Fx("torch-2.14/r05_dist_c10d.triage.log"), nil)
	if a.Report.FirstFailure != nil || a.Verdict.FirstFailure != "" {
		t.Errorf("no failure: %+v %q", a.Report.FirstFailure, a.Verdict.FirstFailure)
	}
}

// Markdown says the verdict's state, never "not steady" for a run without evidence.
func TestMarkdownVerdictState(t *testing.T) {
	var buf strings.Builder
	render.WriteMarkdown(&buf, analyzeRun(t, Fx("torch-2.11-cuda/g01_cg_cpu_input.triage.log"), nil))
	if !strings.Contains(buf.String(), "**Verdict:** no evidence — the input holds no torch output") {
		t.Errorf("markdown:\n%s", buf.String())
	}
	// the state is said once (it read "no evidence — no evidence: …", "not steady — not steady: …")
	buf.Reset()
	render.WriteMarkdown(&buf, analyzeRun(t, Fx("torch-2.14/gb_recompile.triage.log"), nil))
	if !strings.Contains(buf.String(), "**Verdict:** not steady — ") || strings.Contains(buf.String(), "not steady — not steady") {
		t.Errorf("markdown:\n%s", buf.String())
	}
}

// With no torch output, the step before the six says why from what is known: a log holds none, a run printed
// none, or torchtriage stopped the run before it printed any (the tool's stop is never the program's silence).
func TestNoTorchStepWords(t *testing.T) {
	for _, c := range []struct {
		run  *report.RunFacts
		want string
	}{
		{nil, "the input holds no torch output at all"},
		{&report.RunFacts{Outcome: report.OutcomeCompleted}, "the run printed no torch output at all"},
		{&report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "cancelled from the TUI"},
			"torchtriage stopped the run (cancelled from the TUI) before it printed any torch output"},
		{&report.RunFacts{Outcome: report.OutcomeRunning}, ""},
	} {
		a := triage.AnalyzeRun(&report.Report{}, nil, nil, c.run)
		if got := a.State().NoTorch; got != c.want {
			t.Errorf("run %+v: %q, want %q", c.run, got, c.want)
		}
	}
}

// The verdict and the step before the six say the same of missing torch output, in one sentence: a log given
// alone is "the input", several are "the inputs", a run is "the run" (the verdict said "the inputs" for one log
// and for a run).
func TestNoTorchVerdictWords(t *testing.T) {
	for _, c := range []struct {
		inputs []string
		run    *report.RunFacts
		want   string
	}{
		{[]string{"a.log"}, nil, "the input holds no torch output at all"},
		{[]string{"a.log", "b.log"}, nil, "the 2 inputs hold no torch output at all"},
		{[]string{"stdout.log", "stderr.log"}, &report.RunFacts{Outcome: report.OutcomeCompleted}, "the run printed no torch output at all"},
	} {
		a := triage.AnalyzeRun(&report.Report{Inputs: c.inputs}, nil, nil, c.run)
		if got := a.Verdict.Summary; got != "no evidence: "+c.want {
			t.Errorf("%d input(s), run %+v: verdict %q, want %q", len(c.inputs), c.run, got, "no evidence: "+c.want)
		}
		if got := a.State().NoTorch; got != c.want {
			t.Errorf("%d input(s), run %+v: step %q, want %q", len(c.inputs), c.run, got, c.want)
		}
	}
}

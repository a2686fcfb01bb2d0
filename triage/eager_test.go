package triage_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/report"
)

// A run with torch.compile off (TORCHDYNAMO_DISABLE=1: the eager preset, or the user's environment) compiled
// nothing: its verdict and the gate say so, not that graph_breaks was not logged and a rerun with --preset breaks
// would show them (real 2.14.1, `check --preset eager`); the basis names it.
func TestEagerRunSaysCompileWasOff(t *testing.T) {
	zero := 0
	for _, c := range []struct {
		name   string
		run    *report.RunFacts
		probes []report.ProcessInfo
		want   string
	}{
		{"preset", &report.RunFacts{Outcome: report.OutcomeCompleted, ExitCode: &zero, TorchLogsSet: true, ToolEnv: map[string]string{"TORCHDYNAMO_DISABLE": "1"}},
			[]report.ProcessInfo{{Rank: 0, RankSource: "default", Torch: "2.14.1", Env: map[string]string{"TORCHDYNAMO_DISABLE": "1"}}},
			"torch.compile was off (TORCHDYNAMO_DISABLE=1, set by the eager preset)"},
		{"user", &report.RunFacts{Outcome: report.OutcomeCompleted, ExitCode: &zero, TorchLogsSet: true, TorchLogs: "graph_breaks,recompiles"},
			[]report.ProcessInfo{{Rank: 0, RankSource: "default", Torch: "2.14.1", Env: map[string]string{"TORCHDYNAMO_DISABLE": "1"}}},
			"torch.compile was off (TORCHDYNAMO_DISABLE=1)"},
	} {
		a := triage.AnalyzeRun(&report.Report{}, nil, c.probes, c.run)
		if a.Verdict.State != triage.StateNoEvidence || !strings.Contains(a.Verdict.Summary, c.want) || strings.Contains(a.Verdict.Summary, "--preset breaks") {
			t.Errorf("%s: verdict %s %q", c.name, a.Verdict.State, a.Verdict.Summary)
		}
		if !strings.Contains(strings.Join(a.Verdict.Basis, "; "), "TORCHDYNAMO_DISABLE=1") {
			t.Errorf("%s: basis %q", c.name, a.Verdict.Basis)
		}
		why := gate.MissingEvidence(a, gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1})
		if !strings.Contains(why, c.want) {
			t.Errorf("%s: gate's missing evidence %q", c.name, why)
		}
	}
}

// The checklist ticks nothing on a run that compiled nothing: "find graph breaks" and "explain the recompiles"
// were "done" on a run with torch.compile off (logging on, no record), its zeros read as none found.
func TestCompileOffRunTicksNoStep(t *testing.T) {
	zero := 0
	a := triage.AnalyzeRun(&report.Report{}, nil, []report.ProcessInfo{{Rank: 0, RankSource: "default", Torch: "2.14.1", Env: map[string]string{"TORCHDYNAMO_DISABLE": "1"}}},
		&report.RunFacts{Outcome: report.OutcomeCompleted, ExitCode: &zero, TorchLogsSet: true, TorchLogs: "graph_breaks,recompiles"})
	if len(a.Done) != 0 {
		t.Errorf("steps done on a run that compiled nothing: %v", a.Done)
	}
	for _, s := range a.Steps {
		if (s.ID == "breaks" || s.ID == "recompiles") && !strings.Contains(s.Why, "torch.compile was off (TORCHDYNAMO_DISABLE=1)") {
			t.Errorf("step %s: %s, %q", s.ID, s.Status, s.Why)
		}
	}
}

// A run whose processes compiled no frame (the probe's counters hold none: no torch.compile call reached, or
// torch.compiler.set_stance("force_eager")) is no evidence either: "steady state" and a passing gate rested on
// nothing (real 2.14.1, found by an exploratory run). One process that compiled is enough to count.
func TestRunThatCompiledNoFrameIsNoEvidence(t *testing.T) {
	zero := 0
	run := &report.RunFacts{Outcome: report.OutcomeCompleted, ExitCode: &zero, TorchLogsSet: true, TorchLogs: "graph_breaks,recompiles"}
	idle := report.ProcessInfo{Rank: 0, RankSource: "default", Torch: "2.14.1", Counters: map[string]map[string]float64{}}
	a := triage.AnalyzeRun(&report.Report{}, nil, []report.ProcessInfo{idle}, run)
	if a.Verdict.State != triage.StateNoEvidence || !strings.Contains(a.Verdict.Summary, "no frame was compiled (the probe counted none)") {
		t.Errorf("verdict %s %q", a.Verdict.State, a.Verdict.Summary)
	}
	if why := gate.MissingEvidence(a, gate.Options{MaxGraphBreaks: 0, MaxRecompiles: 0}); !strings.Contains(why, "no frame was compiled") {
		t.Errorf("gate: %q", why)
	}
	if len(a.Done) != 0 {
		t.Errorf("steps done: %v", a.Done)
	}
	busy := idle
	busy.Rank, busy.RankSource = 1, "env"
	busy.Counters = map[string]map[string]float64{"frames": {"total": 1, "ok": 1}, "stats": {"unique_graphs": 1}}
	if a := triage.AnalyzeRun(&report.Report{}, nil, []report.ProcessInfo{idle, busy}, run); a.Verdict.State != triage.StateSteady {
		t.Errorf("one process compiled: verdict %s %q", a.Verdict.State, a.Verdict.Summary)
	}
}

// What a baseline had and a run does not show is no improvement when the run is of another command than the
// baseline's (--baseline of early.py against a run of caught2.py read "improved, gone: … (early.py:9)"), nor when
// the run did not complete: both say why instead.
func TestBaselineGoneItemsOfAnotherCommandOrACutRun(t *testing.T) {
	base := gate.NewBaseline(triage.AnalyzeFiles(t, "torch-2.14/gb_recompile.triage.log"))
	base.Command = "python3 early.py"
	empty := filepath.Join(t.TempDir(), "empty.log")
	os.WriteFile(empty, nil, 0o644)
	zero, one := 0, 1
	probe := []report.ProcessInfo{{Rank: 0, RankSource: "default", Torch: "2.14.1", Counters: map[string]map[string]float64{"frames": {"total": 1}}}}
	for _, c := range []struct {
		name    string
		run     *report.RunFacts
		command string
		note    string
	}{
		{"another command", &report.RunFacts{Outcome: report.OutcomeCompleted, ExitCode: &zero, TorchLogsSet: true, TorchLogs: "graph_breaks,recompiles"},
			"python3 caught2.py", "the baseline was written from another command (python3 early.py; this run: python3 caught2.py)"},
		{"did not complete", &report.RunFacts{Outcome: report.OutcomeFailed, ExitCode: &one, TorchLogsSet: true, TorchLogs: "graph_breaks,recompiles"},
			"python3 early.py", "the run did not complete (exited with code 1)"},
	} {
		a := triage.AnalyzeRun(triage.LoadReport(t, empty), nil, probe, c.run)
		res := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: base, Command: c.command})
		if len(res.Improved) != 0 || !strings.Contains(strings.Join(res.Notes, "\n"), c.note) {
			t.Errorf("%s: improved %q, notes %q", c.name, res.Improved, res.Notes)
		}
	}
}

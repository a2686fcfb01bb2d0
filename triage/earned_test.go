package triage_test

// Verdicts, steps and words that must rest on the input: a silenced rank, ranks not compared, a failed exit, the
// basis of a run, small limits.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Rank 1's log lines are gone (its program silenced torch's logging, or its stderr was lost) while its probe
// counted the breaks rank 0 logged: no count of the log stands whole. The breaks are a floor, the ranks are not
// said to agree, and nothing asks to turn on TORCH_LOGS that was on.
func TestSilencedRankIsNoAgreement(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(triage.Fixtures, "torch-2.14/ddp_2ranks.ddp.log"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasPrefix(l, "[rank1]:") {
			kept = append(kept, l)
		}
	}
	path := filepath.Join(t.TempDir(), "rank0_only.log")
	if err := os.WriteFile(path, []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, _, err := triage.BuildReport([]string{path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	breaks := map[string]float64{"call_function DDPOptimizer": 1, "contextlib": 1}
	probes := []report.ProcessInfo{
		{Rank: 0, PID: 10, File: "probe/rank0-10.json", Counters: map[string]map[string]float64{"graph_break": breaks}},
		{Rank: 1, PID: 11, File: "probe/rank1-11.json", Counters: map[string]map[string]float64{"graph_break": breaks}},
	}
	a := triage.Analyze(rep, nil, probes)
	if !strings.Contains(a.Evidence.LogSilenced, "rank 1 counted 2 graph breaks") || a.Evidence.GraphBreaksLogged {
		t.Errorf("evidence %+v", a.Evidence)
	}
	// rank 1's own breaks are not compared (its log lacks them); this probe counted no compiled frame, so what it
	// lacks of rank 0's recompiles is a difference it earned (earnedFromProbe, one rank with records)
	if ra := a.RankAgreement; ra.Agree || !strings.Contains(ra.Summary, "its graph breaks not compared (its probe counted 2 graph breaks)") ||
		!strings.HasPrefix(ra.Summary, "rank 1 differs from rank 0: missing recompile") || strings.Contains(ra.Summary, "TORCH_LOGS") {
		t.Errorf("rank agreement %+v", ra)
	}
	if v := a.BreaksValue(); !strings.HasPrefix(v, "at least") || !strings.Contains(v, "not all in the log") {
		t.Errorf("breaks %q", v)
	}
	if pm := triage.FindingsOf(a, findings.KindProbeMismatch); len(pm) != 1 || pm[0].What != "breaks not in the log" || pm[0].Ranks[0] != 1 {
		t.Errorf("probe mismatch %+v", pm)
	}
}

// A 2-rank run the tool stopped (its timeout) whose ranks printed the same: their agreement is not known (the run
// did not complete), so the checklist's ranks step is not run, not "needs work: ranks compile differently" (the
// TUI's guide said so beside "not compared" in every other view).
func TestRanksStepOfRanksNotCompared(t *testing.T) {
	rep, _, err := triage.BuildReport([]string{filepath.Join(triage.Fixtures, "torch-2.14/ddp_2ranks.ddp.log")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := &report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "timed out after 12s", TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true, Direct: true}
	a := triage.AnalyzeRun(rep, nil, nil, run)
	if a.RankAgreement.NotCompared == "" {
		t.Fatalf("rank agreement %+v", a.RankAgreement)
	}
	for _, s := range a.Steps {
		if s.ID == "ranks" && (s.Status != "not run yet" || strings.Contains(s.Why, "differently")) {
			t.Errorf("ranks step %s: %s", s.Status, s.Why)
		}
	}
	if a.NextStep.ID == "ranks" {
		t.Errorf("next step %s", a.NextStep.ID)
	}
}

// A run that exited 3 (sys.exit(3)) without an error: no process crashed, so the next step is not "fix the crash
// first"; it says the run failed, and why it is proposed.
func TestNextStepOfAFailedExitIsNoCrash(t *testing.T) {
	rep, _, err := triage.BuildReport([]string{filepath.Join(triage.Fixtures, "torch-2.14/gb_recompile.triage.log")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	code := 3
	run := &report.RunFacts{Outcome: report.OutcomeFailed, ExitCode: &code, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true, Direct: true}
	a := triage.AnalyzeRun(rep, nil, nil, run)
	step := a.NextStep
	if step.ID == "crash" || strings.Contains(step.Phrase(), "crash") || !strings.Contains(a.State().Why(step), "exited with code 3") {
		t.Errorf("next step %q (%s): %q", step.ID, step.Phrase(), a.State().Why(step))
	}
}

// The basis names how a run ended in words: "run did not start", not the JSON enum "run did_not_start".
func TestBasisWordsTheOutcome(t *testing.T) {
	for o, want := range map[report.Outcome]string{report.OutcomeDidNotStart: "run did not start", report.OutcomeRunning: "run still running", report.OutcomeCompleted: "run completed"} {
		b := triage.BasisOf(report.ReportEvidence{}, &report.RunFacts{Outcome: o})
		if !slices.Contains(b, want) {
			t.Errorf("%s: basis %q", o, b)
		}
	}
}

// A compile-time limit under 0.1 s is worded as given, not "0.0 s" (which reads as no limit).
func TestSecondsWordOfSmallLimits(t *testing.T) {
	for d, want := range map[time.Duration]string{100 * time.Microsecond: "0.0001 s", 1500 * time.Millisecond: "1.5 s", 50 * time.Millisecond: "0.05 s"} {
		if got := gate.SecondsWord(d); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}

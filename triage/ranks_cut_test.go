package triage_test

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Ranks 0, 1 and 2 log the same break; rank 2 logs one more at another site (synthetic_* records). Of a run that
// completed, that is an earned difference: "ranks 0,1 agree; rank 2: extra graph break …". Of a run that did not
// (stopped by the tool, crashed) every count is a floor: ranks 0,1 may have reached the break later,
// so neither "extra" nor "ranks 0,1 agree" is earned, and --ranks-agree fails on nothing. It read the same as the
// completed run's, and the gate failed. (A run still running: ranks_live_test.go.)
func TestCutRunDifferenceOfLoggedRanksIsNotEarned(t *testing.T) {
	one := 1
	add := func(agg *report.Aggregator) {
		for r := range 3 {
			agg.Add(testlogs.SynthBreak(r, 0, 0, 10, 10+r))
		}
		agg.Add(testlogs.SynthBreak(2, 1, 0, 20, 30))
	}
	run := func(o report.Outcome) *report.RunFacts {
		rf := &report.RunFacts{Outcome: o, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true, WorldSize: 3}
		switch o {
		case report.OutcomeStopped:
			rf.StopReason = "timed out"
		case report.OutcomeFailed:
			rf.ExitCode = &one
		}
		return rf
	}
	analyze := func(o report.Outcome) *triage.Analysis {
		agg := report.NewAggregator()
		agg.AddInput("synthetic_cut.log", -1)
		for r := range 3 {
			agg.AddRank(r)
		}
		add(agg)
		return triage.AnalyzeRun(agg.Report(), nil, nil, run(o))
	}
	done := analyze(report.OutcomeCompleted)
	if ra := done.RankAgreement; ra.Summary != "ranks 0,1 agree; rank 2: extra graph break print() at train.py:20" || !ra.Disagree() {
		t.Errorf("completed: %+v", ra)
	}
	if g := gate.Check(done, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}); len(g.Failures) != 1 {
		t.Errorf("completed: gate %+v", g.Failures)
	}
	for _, c := range []struct {
		o    report.Outcome
		why  string
		live bool
	}{
		{report.OutcomeStopped, "the run did not complete (stopped by torchtriage (timed out))", false},
		{report.OutcomeFailed, "the run did not complete (exited with code 1)", false},
	} {
		a := analyze(c.o)
		ra := a.RankAgreement
		// what differs where the log ends is said, as not earned (SoFar): a hang the tool stopped is often this
		want := "ranks differ where the log ends: rank 2 has what ranks 0,1 had not shown when it ended: graph break " +
			"print() at train.py:20; not compared: " + c.why + ", so the 3 ranks (0–2) could not be compared"
		if ra.Summary != want || ra.Disagree() || ra.Agree || ra.NotCompared != c.why || ra.Live != c.live || ra.Cut == c.live ||
			len(ra.Groups) != 0 || len(ra.SoFar) != 2 {
			t.Errorf("%s: %+v\nwant summary %q", c.o, ra, want)
		}
		for _, f := range a.Findings {
			if f.Kind == findings.KindRankDisagreement {
				t.Errorf("%s: finding %s", c.o, f.Title)
			}
		}
		g := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true})
		if len(g.Failures) != 0 || !strings.Contains(g.NotEvaluated["--ranks-agree"], want) {
			t.Errorf("%s: gate %+v, not evaluated %q", c.o, g.Failures, g.NotEvaluated)
		}
	}
}

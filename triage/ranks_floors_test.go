package triage_test

import (
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Ranks 0 and 1 log the same break; ranks 2 up print no record and their probes count no graph break (synthetic_*
// records, as synthPartialAnalysis builds them), in a run the tool stopped. Every count is a floor there, the
// probes' too: ranks 2 up may have reached the break later, so no difference is earned (earnedDiff), nor an
// agreement: not compared, whether the probe counted every quantity (1 frame) or some (3 frame compiles), and
// --ranks-agree fails on nothing. It read "rank 2 differs from ranks 0,1: missing graph break …" (the probe's none
// taken as exact) and the gate failed. Of a completed run whose log is a floor the difference is earned
// (TestEarnedDifferenceWhereBreaksWereNotLogged, rank_agree_floors_test.go's TestEarnedDifferenceFromRanksNotCompared).
func TestNoEarnedDifferenceOfProbedRanksInACutRun(t *testing.T) {
	sameBreak := func(agg *report.Aggregator) {
		for r := range 2 {
			agg.Add(testlogs.SynthBreak(r, 0, 0, 10, 10+r))
		}
	}
	stopped := func() *report.RunFacts {
		return &report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "timed out", TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true}
	}
	const cut = "not compared: the run did not complete (stopped by torchtriage (timed out)), so the "
	for _, c := range []struct {
		name   string
		world  int
		frames float64
		want   string
	}{
		{"probe counted some", 3, 3, cut + "3 ranks (0–2) could not be compared"},
		{"probe counted all", 3, 1, cut + "3 ranks (0–2) could not be compared"},
		{"two ranks alike", 4, 3, cut + "4 ranks (0–3) could not be compared"},
	} {
		a := synthPartialAnalysis(c.world, sameBreak, stopped(), c.frames, 0)
		ra := a.RankAgreement
		if ra.Summary != c.want || ra.Disagree() || ra.Agree || !ra.Cut || len(ra.Groups) != 0 || len(ra.OthersNotCompared) != 0 {
			t.Errorf("%s: summary %q\nwant       %q\n%+v", c.name, ra.Summary, c.want, ra)
		}
		if g := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}); len(g.Failures) != 0 {
			t.Errorf("%s: gate %+v", c.name, g.Failures)
		}
	}

	// a rank whose probe counted no frame before the run was stopped is named as not compared (idleRanks)
	agg := report.NewAggregator()
	agg.AddInput("synthetic_partial.log", -1)
	for r := range 2 {
		agg.AddRank(r)
	}
	sameBreak(agg)
	probes := []report.ProcessInfo{{Rank: 2, RankSource: "env", WorldSize: 4, Counters: map[string]map[string]float64{"frames": {"total": 1, "ok": 1}}},
		{Rank: 3, RankSource: "env", WorldSize: 4}}
	run := stopped()
	run.WorldSize = 4
	ra := triage.AnalyzeRun(agg.Report(), nil, probes, run).RankAgreement
	if want := cut + "3 ranks (0–2) could not be compared; rank 3 not compared: rank 3 compiled nothing before the run was " +
		"stopped by torchtriage (timed out) (the probe counted no frame)"; ra.Summary != want || ra.Disagree() {
		t.Errorf("summary %q\nwant    %q", ra.Summary, want)
	}
}

// The same where breaks were not logged (TORCH_LOGS recompiles only): ranks 0,1 log the same recompile, rank 2's
// probe counted a graph break (not where) and one frame compile: compared on recompiles, it lacks theirs.
// Where ranks 0,1 logged none of what the probe counted (a floor of 0), nothing is earned: not compared, as before.
func TestEarnedDifferenceWhereBreaksWereNotLogged(t *testing.T) {
	sameRecompile := func(agg *report.Aggregator) {
		for r := range 2 {
			agg.Add(testlogs.SynthRecompile(r, 0, 1, "step", "tensor 'L['x']' size mismatch at index 0. expected 8, actual 9", 10+r))
		}
	}
	run := &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogs: "recompiles", TorchLogsSet: true}
	ra := synthPartialAnalysis(3, sameRecompile, run, 1, 1).RankAgreement
	const differ = "rank 2 differs from ranks 0,1: missing recompile of step, size mismatch x[0] 8→9; rank 2 as its probe counted " +
		"(no log record names it): 1 compiled frame; its graph breaks not compared (its probe counted 1 graph break); " +
		"ranks 0,1 not compared: graph breaks were not logged (TORCH_LOGS)"
	if ra.Summary != differ || !ra.Disagree() {
		t.Errorf("summary %q\nwant    %q", ra.Summary, differ)
	}

	// a rank whose probe recorded no counters is named as not compared, with its own why
	agg := report.NewAggregator()
	agg.AddInput("synthetic_partial.log", -1)
	for r := range 2 {
		agg.AddRank(r)
	}
	sameRecompile(agg)
	probes := []report.ProcessInfo{{Rank: 2, RankSource: "env", WorldSize: 4, Counters: map[string]map[string]float64{"frames": {"total": 1, "ok": 1},
		"graph_break": {"Unsupported: builtin: print a": 1}}}, {Rank: 3, RankSource: "env", WorldSize: 4}}
	run = &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogs: "recompiles", TorchLogsSet: true, WorldSize: 4}
	ra = triage.AnalyzeRun(agg.Report(), nil, probes, run).RankAgreement
	if want := differ + "; rank 3 not compared: its graph breaks and recompiles are not known (no log record names it, and no probe " +
		"of it recorded Dynamo's counters)"; ra.Summary != want || !ra.Disagree() || len(ra.OthersNotCompared) != 2 {
		t.Errorf("summary %q\nwant    %q", ra.Summary, want)
	}

	// nothing logged that the probe counted none of: the floors of 0 earn nothing
	none := func(agg *report.Aggregator) {}
	for _, run := range []*report.RunFacts{{Outcome: report.OutcomeCompleted, TorchLogs: "recompiles", TorchLogsSet: true},
		{Outcome: report.OutcomeStopped, StopReason: "timed out", TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true}} {
		ra = synthPartialAnalysis(3, none, run, 3, 0).RankAgreement
		if ra.Disagree() || ra.Agree || ra.NotCompared == "" || len(ra.OthersNotCompared) != 0 {
			t.Errorf("%s: %+v", run.Outcome, ra)
		}
	}
}

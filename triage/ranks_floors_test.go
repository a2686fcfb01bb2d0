package triage

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// Ranks 0 and 1 log the same break; ranks 2 up print no record and their probes count no graph break (synthetic_*
// records, as synthPartialAnalysis builds them). Where the agreement of ranks 0,1 is not earned, their counts are
// floors: at least the break, against the probe's exact none, is an earned difference, said with the ranks not
// compared and why, whether the probe counted every quantity (1 frame) or some (3 frame compiles, which may be
// recompiles). It read "not compared" as a whole where the probe counted some, and "ranks 0,1 agree" (an agreement
// not earned) where it counted all.
func TestEarnedDifferenceOfRanksNotCompared(t *testing.T) {
	sameBreak := func(agg *Aggregator) {
		for r := range 2 {
			agg.Add(synthBreak(r, 0, 0, 10, 10+r))
		}
	}
	stopped := func() *RunFacts {
		return &RunFacts{Outcome: OutcomeStopped, StopReason: "timed out", TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true}
	}
	const cut = "ranks 0,1 not compared: the run did not complete (stopped by torchtriage (timed out))"
	for _, c := range []struct {
		name   string
		world  int
		run    *RunFacts
		frames float64
		want   string
	}{
		{"cut, probe counted some", 3, stopped(), 3, "rank 2 differs from ranks 0,1: missing graph break print() at train.py:10; " +
			"rank 2 as its probe counted (no log record names it): no graph break; its recompiles not compared " +
			"(its probe counted 3 frame compiles, which may be recompiles); " + cut},
		{"cut, probe counted all", 3, stopped(), 1, "rank 2 differs from ranks 0,1: missing graph break print() at train.py:10; " +
			"rank 2 as its probe counted (no log record names it): 1 compiled frame, no graph break; " + cut},
		{"cut, two ranks alike", 4, stopped(), 3, "ranks 2,3 differ from ranks 0,1: missing graph break print() at train.py:10; " +
			"ranks 2,3 as their probes counted (no log record names them): no graph break each; their recompiles not compared " +
			"(their probes counted 3 frame compiles, which may be recompiles each); " + cut},
	} {
		a := synthPartialAnalysis(c.world, sameBreak, c.run, c.frames, 0)
		ra := a.RankAgreement
		if ra.Summary != c.want || !ra.Disagree() || ra.Agree || ra.Cut || len(ra.Groups) != 2 || !slices.Equal(ra.Groups[0].Ranks, []int{0, 1}) ||
			len(ra.OthersNotCompared) != 1 || !slices.Equal(ra.OthersNotCompared[0].Ranks, []int{0, 1}) ||
			len(ra.FromProbe) != c.world-2 {
			t.Errorf("%s: summary %q\nwant       %q\n%+v", c.name, ra.Summary, c.want, ra)
		}
		g := Gate(a, GateOptions{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true})
		if len(g.Failures) != 1 || !strings.Contains(g.Failures[0].Message, "missing graph break print() at train.py:10") ||
			!strings.Contains(g.Failures[0].Message, cut) {
			t.Errorf("%s: gate %+v", c.name, g.Failures)
		}
		// the JSON keeps it typed, and a saved report reads it back
		j, _ := json.Marshal(ra)
		if !strings.Contains(string(j), `"others_not_compared":[{"ranks":"0,1","size":2,"why":"the run did not complete (stopped by torchtriage (timed out))"}]`) {
			t.Errorf("%s: JSON %s", c.name, j)
		}
		var back RankAgreement
		if err := json.Unmarshal(j, &back); err != nil || back.Summary != ra.Summary || !back.Disagree() ||
			len(back.OthersNotCompared) != 1 || !slices.Equal(back.OthersNotCompared[0].Ranks, []int{0, 1}) {
			t.Errorf("%s: read back %+v (%v)", c.name, back, err)
		}
	}

	// a rank whose probe counted no frame before the run was stopped is named as not compared (idleRanks)
	agg := NewAggregator()
	agg.AddInput("synthetic_partial.log", -1)
	for r := range 2 {
		agg.AddRank(r)
	}
	sameBreak(agg)
	probes := []ProcessInfo{{Rank: 2, RankSource: "env", WorldSize: 4, Counters: map[string]map[string]float64{"frames": {"total": 1, "ok": 1}}},
		{Rank: 3, RankSource: "env", WorldSize: 4}}
	run := stopped()
	run.WorldSize = 4
	ra := AnalyzeRun(agg.Report(), nil, probes, run).RankAgreement
	if want := "rank 2 differs from ranks 0,1: missing graph break print() at train.py:10; rank 2 as its probe counted (no log record names it): " +
		"1 compiled frame, no graph break; " + cut + "; rank 3 not compared: rank 3 compiled nothing before the run was " +
		"stopped by torchtriage (timed out) (the probe counted no frame)"; ra.Summary != want || !ra.Disagree() {
		t.Errorf("summary %q\nwant    %q", ra.Summary, want)
	}
}

// The same where breaks were not logged (TORCH_LOGS recompiles only): ranks 0,1 log the same recompile, rank 2's
// probe counted a graph break (not where) and one frame compile: compared on recompiles, it lacks theirs.
// Where ranks 0,1 logged none of what the probe counted (a floor of 0), nothing is earned: not compared, as before.
func TestEarnedDifferenceWhereBreaksWereNotLogged(t *testing.T) {
	sameRecompile := func(agg *Aggregator) {
		for r := range 2 {
			agg.Add(synthRecompile(r, 0, 1, "step", "tensor 'L['x']' size mismatch at index 0. expected 8, actual 9", 10+r))
		}
	}
	run := &RunFacts{Outcome: OutcomeCompleted, TorchLogs: "recompiles", TorchLogsSet: true}
	ra := synthPartialAnalysis(3, sameRecompile, run, 1, 1).RankAgreement
	const differ = "rank 2 differs from ranks 0,1: missing recompile of step, size mismatch x[0] 8→9; rank 2 as its probe counted " +
		"(no log record names it): 1 compiled frame; its graph breaks not compared (its probe counted 1 graph break); " +
		"ranks 0,1 not compared: graph breaks were not logged (TORCH_LOGS)"
	if ra.Summary != differ || !ra.Disagree() {
		t.Errorf("summary %q\nwant    %q", ra.Summary, differ)
	}

	// a rank whose probe recorded no counters is named as not compared, with its own why
	agg := NewAggregator()
	agg.AddInput("synthetic_partial.log", -1)
	for r := range 2 {
		agg.AddRank(r)
	}
	sameRecompile(agg)
	probes := []ProcessInfo{{Rank: 2, RankSource: "env", WorldSize: 4, Counters: map[string]map[string]float64{"frames": {"total": 1, "ok": 1},
		"graph_break": {"Unsupported: builtin: print a": 1}}}, {Rank: 3, RankSource: "env", WorldSize: 4}}
	run = &RunFacts{Outcome: OutcomeCompleted, TorchLogs: "recompiles", TorchLogsSet: true, WorldSize: 4}
	ra = AnalyzeRun(agg.Report(), nil, probes, run).RankAgreement
	if want := differ + "; rank 3 not compared: its graph breaks and recompiles are not known (no log record names it, and no probe " +
		"of it recorded Dynamo's counters)"; ra.Summary != want || !ra.Disagree() || len(ra.OthersNotCompared) != 2 {
		t.Errorf("summary %q\nwant    %q", ra.Summary, want)
	}

	// nothing logged that the probe counted none of: the floors of 0 earn nothing
	none := func(agg *Aggregator) {}
	for _, run := range []*RunFacts{{Outcome: OutcomeCompleted, TorchLogs: "recompiles", TorchLogsSet: true},
		{Outcome: OutcomeStopped, StopReason: "timed out", TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true}} {
		ra = synthPartialAnalysis(3, none, run, 3, 0).RankAgreement
		if ra.Disagree() || ra.Agree || ra.NotCompared == "" || len(ra.OthersNotCompared) != 0 {
			t.Errorf("%s: %+v", run.Outcome, ra)
		}
	}
}

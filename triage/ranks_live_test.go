package triage_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// liveRanks analyzes three ranks that log the same break at train.py:10, of a run in outcome o, with add's records
// on top (synthetic_* records).
func liveRanks(o report.Outcome, add func(agg *report.Aggregator)) *triage.Analysis {
	agg := report.NewAggregator()
	agg.AddInput("synthetic_live.log", -1)
	for r := range 3 {
		agg.AddRank(r)
		agg.Add(testlogs.SynthBreak(r, 0, 0, 10, 10+r))
	}
	add(agg)
	return triage.AnalyzeRun(agg.Report(), nil, nil, &report.RunFacts{Outcome: o, TorchLogs: "graph_breaks,recompiles",
		TorchLogsSet: true, WorldSize: 3})
}

// A run still running whose ranks differ so far: a rank with fewer may still reach the other's count, so the
// difference is not earned (earnedDiff), as of a stopped run: no "rank 2: extra …", no rank-disagreement finding,
// and --ranks-agree fails on nothing. Nor is it "agree so far": the difference so far is kept, typed (SoFar, JSON
// differ_so_far), and said as what the rank with more has that the other has not shown (yet). It read "ranks 0,1
// agree; rank 2: extra graph break …" (Disagree, a finding, a gate failure) while the run went on.
func TestLiveRunDifferenceSoFarIsNotEarnedNorAgreement(t *testing.T) {
	for _, c := range []struct {
		name    string
		add     func(agg *report.Aggregator)
		summary string
		ref     []int
		extra   []string
		missing []string
	}{
		{"rank 2 has one more", func(agg *report.Aggregator) { agg.Add(testlogs.SynthBreak(2, 1, 0, 20, 30)) },
			"ranks differ so far: rank 2 has what ranks 0,1 have not shown (yet): graph break print() at train.py:20; " +
				"not compared: the run is still running, so the 3 ranks (0–2) could not be compared",
			[]int{0, 1}, []string{"graph break print() at train.py:20"}, nil},
		{"rank 2 has one fewer", func(agg *report.Aggregator) {
			agg.Add(testlogs.SynthBreak(0, 1, 0, 20, 30))
			agg.Add(testlogs.SynthBreak(1, 1, 0, 20, 31))
		},
			"ranks differ so far: ranks 0,1 have what rank 2 has not shown (yet): graph break print() at train.py:20; " +
				"not compared: the run is still running, so the 3 ranks (0–2) could not be compared",
			[]int{0, 1}, nil, []string{"graph break print() at train.py:20"}},
	} {
		done := liveRanks(report.OutcomeCompleted, c.add)
		if !done.RankAgreement.Disagree() || done.RankAgreement.SoFar != nil {
			t.Errorf("%s: completed: %+v", c.name, done.RankAgreement)
		}
		a := liveRanks(report.OutcomeRunning, c.add)
		ra := a.RankAgreement
		if ra.Summary != c.summary {
			t.Errorf("%s: summary\n%q\nwant\n%q", c.name, ra.Summary, c.summary)
		}
		if ra.Disagree() || ra.Agree || !ra.Live || ra.Cut || ra.NotCompared != "the run is still running" || len(ra.Groups) != 0 {
			t.Errorf("%s: %+v", c.name, ra)
		}
		if len(ra.SoFar) != 2 || !slices.Equal(ra.SoFar[0].Ranks, c.ref) || !slices.Equal(ra.SoFar[1].Ranks, []int{2}) ||
			strings.Join(ra.SoFar[1].Extra, "|") != strings.Join(c.extra, "|") ||
			strings.Join(ra.SoFar[1].Missing, "|") != strings.Join(c.missing, "|") {
			t.Errorf("%s: so far %+v", c.name, ra.SoFar)
		}
		for _, f := range a.Findings {
			if f.Kind == findings.KindRankDisagreement {
				t.Errorf("%s: finding %s", c.name, f.Title)
			}
		}
		g := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true})
		if len(g.Failures) != 0 || !strings.Contains(g.NotEvaluated["--ranks-agree"], c.summary) {
			t.Errorf("%s: gate %+v, not evaluated %q", c.name, g.Failures, g.NotEvaluated)
		}
		js, err := json.Marshal(ra)
		if err != nil || !strings.Contains(string(js), `"differ_so_far":[{"ranks":"`) {
			t.Errorf("%s: JSON %s (%v)", c.name, js, err)
		}
	}
	// nothing differs so far: not compared, and nothing said to differ
	ra := liveRanks(report.OutcomeRunning, func(*report.Aggregator) {}).RankAgreement
	if ra.SoFar != nil || !ra.Live || ra.Summary != "not compared: the run is still running, so the 3 ranks (0–2) could not be compared" {
		t.Errorf("alike so far: %+v", ra)
	}
	// a stopped run says its difference where its log ends, not earned either, in the past ("had not shown")
	if ra := liveRanks(report.OutcomeStopped, func(agg *report.Aggregator) { agg.Add(testlogs.SynthBreak(2, 1, 0, 20, 30)) }).RankAgreement; ra.SoFar == nil ||
		ra.Live || ra.Disagree() || !strings.HasPrefix(ra.Summary, "ranks differ where the log ends: ") || !strings.Contains(ra.Summary, "had not shown when it ended") {
		t.Errorf("stopped: %+v", ra)
	}
}

// A difference so far says nothing of ranks no log record names: they are taken out of its groups (a group of only
// such ranks goes), and where the reference had only such ranks nothing differs so far that could be said.
func TestSoFarWithoutRanksNoRecordNames(t *testing.T) {
	groups := []ranks.RankGroup{{Ranks: []int{0, 3}}, {Ranks: []int{1}, Extra: []string{"graph break x"}, FirstDivergent: map[int]string{1: "0/0"}},
		{Ranks: []int{2}, Extra: []string{"graph break y"}, FirstDivergent: map[int]string{2: "0/0"}}}
	got := ranks.SoFarGroups(groups, []report.RankWithoutRecords{{Rank: 3}, {Rank: 2}})
	if want := "ranks differ so far: rank 1 has what rank 0 has not shown (yet): graph break x"; len(got) != 2 ||
		!slices.Equal(got[0].Ranks, []int{0}) || ranks.SoFarWords(got, true) != want {
		t.Errorf("got %+v\nwant %q", got, want)
	}
	if len(groups[0].Ranks) != 2 {
		t.Errorf("the groups given were changed: %+v", groups)
	}
	if ref := ranks.SoFarGroups(groups, []report.RankWithoutRecords{{Rank: 0}, {Rank: 3}}); ref != nil { // the reference's ranks all silent
		t.Errorf("silent reference: %+v", ref)
	}
	if same := ranks.SoFarGroups(groups, nil); len(same) != 3 {
		t.Errorf("no silent rank: %+v", same)
	}
}

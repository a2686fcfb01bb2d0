package triage_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
)

// synthetic_* inputs: records built as the parser builds them (synthBreak, synthRecompile) and probes' counters as
// the probe records them (Dynamo's counters), for the cases no recorded run holds.

// synthPartialAnalysis: ranks 0 and 1 log what add gives them, ranks 2 up to world-1 print no record; each probe
// of those counts frames compiled (none read where frames < 0) and graph breaks (distinct reasons).
func synthPartialAnalysis(world int, add func(agg *report.Aggregator), run *report.RunFacts, frames float64, breaks int) *triage.Analysis {
	agg := report.NewAggregator()
	agg.AddInput("synthetic_partial.log", -1)
	for r := range 2 {
		agg.AddRank(r)
	}
	add(agg)
	var probes []report.ProcessInfo
	for r := 2; r < world; r++ {
		brk := map[string]float64{}
		for i := range breaks {
			brk["Unsupported: builtin: print "+string(rune('a'+i))] = 1
		}
		p := report.ProcessInfo{Rank: r, RankSource: "env", WorldSize: world}
		if frames >= 0 { // else no counters read
			p.Counters = map[string]map[string]float64{"frames": {"total": frames, "ok": frames}, "graph_break": brk}
		}
		probes = append(probes, p)
	}
	if run == nil {
		run = &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true}
	}
	run.WorldSize = world
	return triage.AnalyzeRun(agg.Report(), nil, probes, run)
}

// A rank no log record names is compared on each quantity its probe counted, and "not compared" is said of the
// others alone, by name: the same break on ranks 0 and 1, rank 2's probe counted 3 frame compiles (which may be
// recompiles) and no graph break. Its breaks differ (it lacks the others'); its recompiles are not compared. It
// was left out whole ("rank 2 not compared: its recompiles are not known"), and ranks 0,1 said to agree.
func TestRankComparedOnWhatItsProbeCounted(t *testing.T) {
	sameBreak := func(agg *report.Aggregator) {
		for r := range 2 {
			agg.Add(testlogs.SynthBreak(r, 0, 0, 10, 10+r))
		}
	}
	a := synthPartialAnalysis(3, sameBreak, nil, 3, 0)
	ra := a.RankAgreement
	want := "ranks 0,1 agree; rank 2: missing graph break print() at train.py:10; rank 2 as its probe counted (no log record names it): " +
		"no graph break; its recompiles not compared (its probe counted 3 frame compiles, which may be recompiles)"
	if !ra.Disagree() || ra.Summary != want || len(ra.Groups) != 2 || ra.Groups[1].Ranks[0] != 2 || ra.Groups[1].FirstDivergent[2] != "0/0" {
		t.Errorf("summary %q\nwant    %q\n%+v", ra.Summary, want, ra)
	}
	if g := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}); len(g.Failures) != 1 ||
		!strings.Contains(g.Failures[0].Message, "its recompiles not compared") {
		t.Errorf("gate %+v", g.Failures)
	}
	j, _ := json.Marshal(render.JSONOf(a).RankAgreement)
	if !strings.Contains(string(j), `"from_probe":[{"rank":2,"known_from":["probe","world_size","launcher"],"probe_frames_compiled":3,`+
		`"compared_on":["graph breaks","compile errors","CUDA-graph skips"],"not_compared":["recompiles"],"probe_counted":["3 frame compiles, which may be recompiles"]}]`) {
		t.Errorf("JSON %s", j)
	}

	// two ranks alike: one group, one part
	ra = synthPartialAnalysis(4, sameBreak, nil, 3, 0).RankAgreement
	if want := "ranks 0,1 agree; ranks 2,3: missing graph break print() at train.py:10; ranks 2,3 as their probes counted (no log record names them): " +
		"no graph break each; their recompiles not compared (their probes counted 3 frame compiles, which may be recompiles each)"; ra.Summary != want {
		t.Errorf("summary %q\nwant    %q", ra.Summary, want)
	}

	// no difference on what was compared: no agreement of all; the rank agrees on what its probe counted
	sameRecompile := func(agg *report.Aggregator) {
		for r := range 2 {
			agg.Add(testlogs.SynthRecompile(r, 0, 1, "step", "tensor 'L['x']' size mismatch at index 0. expected 8, actual 9", 10+r))
		}
	}
	ra = synthPartialAnalysis(3, sameRecompile, nil, 3, 0).RankAgreement
	if want := "all 2 ranks agree (0,1); rank 2, which no log record names, agrees with ranks 0,1 on what its probe counted: no graph break; " +
		"its recompiles not compared (its probe counted 3 frame compiles, which may be recompiles)"; ra.Summary != want || ra.Agree || ra.Disagree() ||
		ra.NotCompared != "rank 2's recompiles are not known (no log record names it; its probe counted 3 frame compiles, which may be recompiles)" {
		t.Errorf("summary %q\nwant    %q\nnot compared %q", ra.Summary, want, ra.NotCompared)
	}

	// graph breaks and recompiles not known (2 breaks counted, not where; 3 frame compiles): compared on what is left
	ra = synthPartialAnalysis(3, sameBreak, nil, 3, 2).RankAgreement
	if want := "all 2 ranks agree (0,1); rank 2, which no log record names, agrees with ranks 0,1 on what its probe counted: " +
		"no frame that failed to compile, no CUDA-graph skip; its graph breaks and recompiles not compared " +
		"(its probe counted 2 graph breaks and 3 frame compiles, which may be recompiles)"; ra.Summary != want || ra.Disagree() || ra.Agree {
		t.Errorf("summary %q\nwant    %q", ra.Summary, want)
	}

	// nothing counted (no counters read): left out whole, as before
	ra = synthPartialAnalysis(3, sameBreak, nil, -1, 0).RankAgreement
	if !strings.Contains(ra.Summary, "all 2 ranks agree (0,1); rank 2 not compared: its graph breaks and recompiles are not known") ||
		ra.Disagree() || len(ra.FromProbe) != 0 {
		t.Errorf("%+v", ra)
	}
}

// Agreement on what a probe counted is earned as all agreement is: of a run that did not complete, two ranks with
// no difference in what was compared are not compared (what they never reached is not known), by the one sentence.
func TestRankComparedOnWhatItsProbeCountedOfARunCut(t *testing.T) {
	oneRecompile := func(agg *report.Aggregator) {
		agg.Add(testlogs.SynthRecompile(0, 0, 1, "step", "tensor 'L['x']' size mismatch at index 0. expected 8, actual 9", 10))
	}
	agg := report.NewAggregator()
	agg.AddInput("synthetic_partial.log", -1)
	agg.AddRank(0)
	oneRecompile(agg)
	probes := []report.ProcessInfo{{Rank: 1, RankSource: "env", WorldSize: 2,
		Counters: map[string]map[string]float64{"frames": {"total": 3, "ok": 3}}}}
	run := &report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "timed out", TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true, WorldSize: 2}
	ra := triage.AnalyzeRun(agg.Report(), nil, probes, run).RankAgreement
	// rank 1 is known from its probe only: the log shows nothing of it, so no difference so far is said of it
	if ra.Disagree() || ra.Agree || !ra.Cut || ra.SoFar != nil ||
		ra.Summary != "not compared: the run did not complete (stopped by torchtriage (timed out)), so the 2 ranks (0,1) could not be compared" {
		t.Errorf("%+v", ra)
	}
	// completed: rank 1 agrees with rank 0 on breaks (neither has one); its recompiles are not compared
	run = &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true, WorldSize: 2}
	ra = triage.AnalyzeRun(agg.Report(), nil, probes, run).RankAgreement
	if ra.Disagree() || ra.Agree || ra.Summary != "rank 1, which no log record names, agrees with rank 0 on what its probe counted: no graph break; "+
		"its recompiles not compared (its probe counted 3 frame compiles, which may be recompiles)" {
		t.Errorf("%+v", ra)
	}
	// graph breaks not logged, rank 1's probe counted one (not where), and one frame compiled: compared on
	// recompiles, where it differs (whatever was not logged, rank 0 printed its recompile)
	probes[0].Counters = map[string]map[string]float64{"frames": {"total": 1, "ok": 1}, "graph_break": {"Unsupported: builtin: print": 1}}
	run.TorchLogs = "recompiles"
	ra = triage.AnalyzeRun(agg.Report(), nil, probes, run).RankAgreement
	if want := "rank 1 differs from rank 0: missing recompile of step, size mismatch x[0] 8→9; rank 1 as its probe counted (no log record names it): " +
		"1 compiled frame; its graph breaks not compared (its probe counted 1 graph break)"; ra.Summary != want || !ra.Disagree() {
		t.Errorf("summary %q\nwant    %q", ra.Summary, want)
	}
}

package triage_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Ranks the launcher started that no record names, and no probe of which was read: per_rank_unknown names them
// (known from the launcher, no frames counted), in the JSON and in the text's "Per rank", one line for all of
// them; the ranks with records keep their counts. Every rank of the JSON's ranks is in one of the two.
func TestRanksOnlyTheLauncherShows(t *testing.T) {
	agg := report.NewAggregator()
	agg.AddInput("synthetic.log", -1)
	agg.AddRank(0)
	agg.Add(testlogs.SynthBreak(0, 0, 0, 1, 10))
	a := triage.AnalyzeRun(agg.Report(), nil, nil, &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogs: "graph_breaks,recompiles",
		TorchLogsSet: true, WorldSize: 4})
	u := a.Report.PerRankUnknown
	if len(u) != 3 || u[0].Rank != 1 || u[2].Rank != 3 || u[0].ProbeFrames != nil || len(u[0].KnownFrom) != 1 || u[0].KnownFrom[0] != ranks.KnownFromLauncher {
		t.Fatalf("per_rank_unknown %+v (ranks %v, per_rank %v)", u, a.Report.Ranks, a.Report.PerRank)
	}
	var b strings.Builder
	if err := render.WriteReport(&b, a, "json", text.Options{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Ranks   []int            `json:"ranks"`
		PerRank map[string]any   `json:"per_rank"`
		Unknown []map[string]any `json:"per_rank_unknown"`
	}
	if err := json.Unmarshal([]byte(b.String()), &doc); err != nil || len(doc.Ranks) != 4 || len(doc.PerRank) != 1 || len(doc.Unknown) != 3 {
		t.Errorf("JSON ranks %v, per_rank %v, per_rank_unknown %v (%v)", doc.Ranks, doc.PerRank, doc.Unknown, err)
	}
	if _, ok := doc.Unknown[0]["probe_frames_compiled"]; ok {
		t.Errorf("no probe, yet frames: %v", doc.Unknown[0])
	}
	b.Reset()
	render.WriteReportText(&b, a, text.Options{Width: 200})
	if !strings.Contains(b.String(), "\n  ranks 1–3: counts not known: no log record names them (known from the launcher)\n") {
		t.Errorf("text:\n%s", b.String())
	}
	// a report of one process has none, and its JSON an empty list, not null
	single := triage.Analyze(&report.Report{PerRank: map[string]report.Counts{}}, nil, nil)
	b.Reset()
	if err := render.WriteReport(&b, single, "json", text.Options{}); err != nil || !strings.Contains(b.String(), `"per_rank_unknown": []`) {
		t.Errorf("single process: %v\n%.400s", err, b.String())
	}
}

// Rank agreement compares a rank no log record names only on what its probe counted: torchrun started 3 ranks,
// ranks 0 and 1 logged the same break, rank 2 printed nothing. It read "ranks 0,1 agree; rank 2: missing graph
// break print() at train.py:10", as if rank 2 had logged no break; with no probe of it, nothing shows that. With
// its probe's counters (one frame compiled, no break counted) the difference stands, and names its basis. Ranks 0
// and 1 agree, but not all ranks were compared: no agreement of all (--ranks-agree has no evidence, not a pass).
func TestRankAgreementOfRanksTheLauncherShows(t *testing.T) {
	analyze := func(probes []report.ProcessInfo) *triage.Analysis {
		agg := report.NewAggregator()
		agg.AddInput("synthetic.log", -1)
		for r := range 2 {
			agg.AddRank(r)
			agg.Add(testlogs.SynthBreak(r, 0, 0, 10, 10+r))
		}
		return triage.AnalyzeRun(agg.Report(), nil, probes, &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogs: "graph_breaks,recompiles",
			TorchLogsSet: true, WorldSize: 3})
	}
	a := analyze(nil)
	o := gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}
	if g := gate.Check(a, o); len(g.Failures) > 0 || !strings.Contains(gate.MissingEvidence(a, o), "rank 2 not compared") {
		t.Errorf("--ranks-agree without rank 2's counts: %+v", g)
	}
	ra := a.RankAgreement
	if ra.Disagree() || ra.Agree || !strings.HasPrefix(ra.NotCompared, "rank 2's graph breaks and recompiles are not known") || strings.Contains(ra.Summary, "missing") ||
		!strings.Contains(ra.Summary, "all 2 ranks agree (0,1); rank 2 not compared: its graph breaks and recompiles are not known (no log record names it, and no probe of it recorded Dynamo's counters)") {
		t.Errorf("no probe of rank 2: %+v", ra)
	}
	probe := func(r int, frames float64, breaks map[string]float64) report.ProcessInfo {
		return report.ProcessInfo{Rank: r, RankSource: "env", WorldSize: 3,
			Counters: map[string]map[string]float64{"frames": {"total": frames, "ok": frames}, "graph_break": breaks}}
	}
	brk := map[string]float64{"Unsupported: builtin: print": 1}
	ra = analyze([]report.ProcessInfo{probe(0, 2, brk), probe(1, 2, brk), probe(2, 1, nil)}).RankAgreement
	if !ra.Disagree() || !strings.Contains(ra.Summary, "ranks 0,1 agree; rank 2: missing graph break print() at train.py:10") ||
		!strings.Contains(ra.Summary, "rank 2 as its probe counted (no log record names it): 1 compiled frame, no graph break") ||
		len(ra.FromProbe) != 1 || ra.FromProbe[0].Rank != 2 {
		t.Errorf("rank 2's probe counted no break: %+v", ra)
	}
}

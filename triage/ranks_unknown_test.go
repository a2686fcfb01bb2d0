package triage

import (
	"encoding/json"
	"strings"
	"testing"
)

// Ranks the launcher started that no record names, and no probe of which was read: per_rank_unknown names them
// (known from the launcher, no frames counted), in the JSON and in the text's "Per rank", one line for all of
// them; the ranks with records keep their counts. Every rank of the JSON's ranks is in one of the two.
func TestRanksOnlyTheLauncherShows(t *testing.T) {
	agg := NewAggregator()
	agg.AddInput("synthetic.log", -1)
	agg.AddRank(0)
	agg.Add(synthBreak(0, 0, 0, 1, 10))
	a := AnalyzeRun(agg.Report(), nil, nil, &RunFacts{Outcome: OutcomeCompleted, TorchLogs: "graph_breaks,recompiles",
		TorchLogsSet: true, WorldSize: 4})
	u := a.Report.PerRankUnknown
	if len(u) != 3 || u[0].Rank != 1 || u[2].Rank != 3 || u[0].ProbeFrames != nil || len(u[0].KnownFrom) != 1 || u[0].KnownFrom[0] != KnownFromLauncher {
		t.Fatalf("per_rank_unknown %+v (ranks %v, per_rank %v)", u, a.Report.Ranks, a.Report.PerRank)
	}
	var b strings.Builder
	if err := WriteReport(&b, a, "json", TextOptions{}); err != nil {
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
	WriteReportText(&b, a, TextOptions{Width: 200})
	if !strings.Contains(b.String(), "\n  ranks 1–3: counts not known: no log record names them (known from the launcher)\n") {
		t.Errorf("text:\n%s", b.String())
	}
	// a report of one process has none, and its JSON an empty list, not null
	single := Analyze(&Report{PerRank: map[string]Counts{}}, nil, nil)
	b.Reset()
	if err := WriteReport(&b, single, "json", TextOptions{}); err != nil || !strings.Contains(b.String(), `"per_rank_unknown": []`) {
		t.Errorf("single process: %v\n%.400s", err, b.String())
	}
}

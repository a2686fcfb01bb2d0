package triage

import (
	"strings"
	"testing"
)

// One record is "1 record", in the text counts line and the Markdown table alike (they read "(1 records)").
func TestCountsSayOneRecord(t *testing.T) {
	a := Analyze(loadReport(t, fx("torch-2.14/gb_recompile.no_torch_logs.log")), nil, nil)
	if a.Report.Counts.GraphBreakRecords != 1 {
		t.Fatalf("the fixture has %d break records, the test wants 1", a.Report.Counts.GraphBreakRecords)
	}
	if got := a.BreaksText(); got != "graph breaks 1 distinct (1 record)" {
		t.Errorf("text: %q", got)
	}
	var md strings.Builder
	WriteMarkdown(&md, a)
	if !strings.Contains(md.String(), "| 1 (1 record) |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	a = Analyze(loadReport(t, fx("torch-2.14/gb_recompile.triage.log")), nil, nil)
	if got := a.BreaksText(); got != "graph breaks 3 distinct (7 records)" {
		t.Errorf("text: %q", got)
	}
}

// The gate's summary line and the per-rank counts say "1 limit hit", "1 recompile" (they read "1 limit hits").
func TestGateAndRankCountsSayOne(t *testing.T) {
	a := Analyze(loadReport(t, fx("torch-2.14/gb_recompile.triage.log")), nil, nil)
	s := gateSummary(Gate(a, GateOptions{MaxGraphBreaks: -1, MaxRecompiles: -1, NoLimitHits: true}))
	if !strings.Contains(s, ", 1 limit hit, 0 compile errors, 0 runtime errors") {
		t.Errorf("gate: %s", s)
	}
	r05 := Analyze(loadReport(t, fx("torch-2.6/r05_dist_c10d.triage.log")), nil, nil)
	if res := Gate(r05, GateOptions{MaxGraphBreaks: 0, MaxRecompiles: -1}); len(res.Failures) == 0 || !strings.HasPrefix(res.Failures[0].Message, "1 graph break > 0: ") {
		t.Errorf("gate failure: %+v", res.Failures)
	}
	if got := countsText(Counts{GraphBreaks: 1, Recompiles: 1, CudagraphSkips: 1, RecompileLimitHits: 2}, nil); got != "1 break, 1 recompile, 2 limit hits, 1 skip, 0 compile errors, 0 runtime errors" {
		t.Errorf("per rank: %s", got)
	}
}

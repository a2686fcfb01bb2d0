package triage

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

func counterInfo(rank int, breaks map[string]float64) report.ProcessInfo {
	return report.ProcessInfo{Rank: rank, PID: 1000 + rank, Counters: map[string]map[string]float64{
		"graph_break": breaks, "stats": {"unique_graphs": 6},
	}}
}

// The gb_recompile repro (fixtures torch-2.14/gb_recompile.*): its process logs the print break
// 4 times (first record + 3 "user stack suppressed" duplicates over recompiles), the Tensor.item()
// break twice and the nonzero break once: 7 events, 3 distinct breaks.
var gbRecompile = map[string]float64{
	"Failed to trace builtin operator print":                           4,
	"Unsupported Tensor.item() call with capture_scalar_outputs=False": 2,
	"Dynamic shape operator aten.nonzero.default":                      1,
}

func TestCrossCheckNoFalseAlarmWhenGraphBreaksLogged(t *testing.T) {
	// gb_recompile.triage.log: graph_breaks logged, 3 distinct breaks for the one process.
	if got := findings.CrossCheck([]report.ProcessInfo{counterInfo(0, gbRecompile)}, map[int]int{0: 3}, true); got != nil {
		t.Errorf("events (7) must not be compared with distinct breaks (3): %+v", got)
	}
	// logged, the log shows fewer distinct breaks than reasons: ambiguous, no check.
	if got := findings.CrossCheck([]report.ProcessInfo{counterInfo(0, gbRecompile)}, map[int]int{0: 1}, true); got != nil {
		t.Errorf("ambiguous counts must not alarm: %+v", got)
	}
}

func TestCrossCheckGraphBreaksNotLogged(t *testing.T) {
	// gb_recompile.no_torch_logs.log: only the Tensor.item() warning shows: 1 break.
	got := findings.CrossCheck([]report.ProcessInfo{counterInfo(0, gbRecompile)}, map[int]int{0: 1}, false)
	if len(got) != 1 {
		t.Fatalf("want one check, got %+v", got)
	}
	c := got[0]
	if c.Rank != 0 || c.ProcessBreaks != 3 || c.ProcessEvents != 7 || c.LogBreaks != 1 {
		t.Errorf("check fields: %+v", c)
	}
	want := "rank 0: the process counted 3 graph breaks (7 events), the log shows 1 — graph_breaks was not logged; enable graph_breaks in TORCH_LOGS"
	if c.Message != want {
		t.Errorf("message\n%q\nwant\n%q", c.Message, want)
	}
	one := findings.CrossCheck([]report.ProcessInfo{counterInfo(0, map[string]float64{"x": 1})}, nil, false)
	if len(one) != 1 || !strings.Contains(one[0].Message, "counted 1 graph break, the log shows none") {
		t.Errorf("singular wording: %+v", one)
	}
}

func TestCrossCheckRankMissingFromLog(t *testing.T) {
	// r05_dist_c10d: only rank 0 breaks. Its records are missing from the capture.
	infos := []report.ProcessInfo{counterInfo(0, map[string]float64{"print": 2}), counterInfo(1, map[string]float64{})}
	if got := findings.CrossCheck(infos, map[int]int{0: 1, 1: 0}, true); got != nil {
		t.Errorf("rank 0 logged its break, rank 1 has none: %+v", got)
	}
	got := findings.CrossCheck(infos, map[int]int{1: 0}, true)
	if len(got) != 1 || got[0].Rank != 0 || !strings.Contains(got[0].Message, "log shows none although graph_breaks was on") {
		t.Fatalf("want a missing-output check for rank 0, got %+v", got)
	}
	// a break without a rank prefix may be rank 0's (printed before its process group existed): no check
	if got := findings.CrossCheck(infos, map[int]int{1: 0, -1: 1}, true); got != nil {
		t.Errorf("with an unprefixed break in the log: %+v", got)
	}
}

func TestCrossCheckNormalisesReasons(t *testing.T) {
	addr := counterInfo(0, map[string]float64{
		"call_method UserDefinedObjectVariable(<Foo object at 0x7f01aa>) step": 1,
		"call_method UserDefinedObjectVariable(<Foo object at 0x7f99bb>) step": 1,
		"total": 9,
	})
	got := findings.CrossCheck([]report.ProcessInfo{addr}, map[int]int{0: 1}, false)
	if got != nil {
		t.Errorf("reasons differing only by address are one break; total is not a reason: %+v", got)
	}
	if got := findings.CrossCheck([]report.ProcessInfo{counterInfo(0, map[string]float64{"total": 4})}, nil, false); got != nil {
		t.Errorf("a total alone is not a break: %+v", got)
	}
}

func TestCrossCheckSingleProcessWithoutRankPrefix(t *testing.T) {
	// RANK=3 set by hand; the log has no [rankN]: prefixes, the caller filed its breaks under 0.
	if got := findings.CrossCheck([]report.ProcessInfo{counterInfo(3, gbRecompile)}, map[int]int{0: 3}, false); got != nil {
		t.Errorf("single rank must use the log's total: %+v", got)
	}
}

// A process the probe gave rank 0 only by default (no RANK, no process group) is named "the process", not
// "rank 0": in the cross-check's message and in a risky knob's finding (its ranks and its detail).
func TestProbeOfAProcessWithoutRankNamesNoRank(t *testing.T) {
	p := counterInfo(0, gbRecompile)
	p.RankSource = "default"
	got := findings.CrossCheck([]report.ProcessInfo{p}, map[int]int{-1: 1}, false)
	if len(got) != 1 || got[0].Rank != -1 || strings.Contains(got[0].Message, "rank 0") ||
		!strings.HasPrefix(got[0].Message, "the process counted 3 graph breaks (7 events), the log shows 1") {
		t.Errorf("cross-check %+v", got)
	}
	p.Env = map[string]string{"TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"}
	p.Torch = "2.14.1"
	a := Analyze(&report.Report{}, nil, []report.ProcessInfo{p})
	var knob *findings.Finding
	for i := range a.Findings {
		if strings.HasSuffix(a.Findings[i].ID, "knob:force_disable_caches") {
			knob = &a.Findings[i]
		}
	}
	if knob == nil || len(knob.Ranks) != 0 || strings.Contains(knob.Detail, "rank 0") || !strings.Contains(knob.Detail, "Set on the process") {
		t.Errorf("knob finding %+v", knob)
	}
}

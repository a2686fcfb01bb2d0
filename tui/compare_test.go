package tui

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/compare"
)

// d on two runs shows what `torchtriage compare A B` shows: the verdict, compile time, caches; then the findings.
func TestDiffOfTwoRunsShowsTheComparison(t *testing.T) {
	m := liveModel(t, 120, 40)
	cold := feedRun(t, m, 1, "c01_mlp.cold.log", "breaks", "dynamo,aot,inductor", 0)
	warm := feedRun(t, m, 2, "c01_mlp.warm.log", "breaks", "dynamo,aot,inductor", 0)
	press(m, "d")
	out := plain(m)
	res := compare.Compare(compareSide(cold), compareSide(warm))
	if res.Verdict == "" || !strings.Contains(out, res.Verdict[:60]) {
		t.Fatalf("the diff screen lacks compare's verdict %q:\n%s", res.Verdict, out)
	}
	for _, want := range []string{"FX graph cache miss → hit", "Caches (A → B)", "fx_graph", "(miss → hit)",
		"Findings (torchtriage diff)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the diff screen lacks %q:\n%s", want, out)
		}
	}
}

// A run that did not log graph breaks and recompiles is not compared on them: the diff screen says so instead of
// listing the other run's breaks as new (or "the two runs have the same findings").
func TestDiffScreenSaysWhatWasNotCompared(t *testing.T) {
	m := liveModel(t, 120, 40)
	feedRun(t, m, 1, "c01_mlp.cold.log", "custom", "dynamo,aot,inductor", 0)
	feedRun(t, m, 2, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	press(m, "d")
	out := plain(m)
	for _, want := range []string{"not compared: graph breaks: A did not log them", "not compared: recompiles: A did not log them"} {
		if !strings.Contains(out, want) {
			t.Errorf("the diff screen lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "+ new graph break") || strings.Contains(out, "+ new recompile") || strings.Contains(out, "the two runs have the same findings") {
		t.Errorf("the diff screen compares what run 1 did not log:\n%s", out)
	}
}

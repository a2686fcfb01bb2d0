package compare_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// Two vLLM logs that log no graph breaks differ in what compiled after warm-up and in the compile time vLLM states
// (testdata/fixtures/synthetic: a warm start against a start whose AOT load failed): compare's verdict says both,
// and why, where it said "no difference in what both sides show"; diff shows the steady state and each side's
// serving lines; the JSON carries the same.
func TestCompareAndDiffOfServingLogs(t *testing.T) {
	a, b := fx("synthetic/synthetic_vllm_warm_start.log"), fx("synthetic/synthetic_vllm_serving.log")
	out := triagetest.Compare(t, "text", a, b)
	verdict := lineWith(out, "compiles after warm-up 0 → 2")
	for _, want := range []string{"the framework's stated compile time +263.1 s (1.5 s → 264.6 s)",
		"B a warm start that went cold (AOT load failure, reason: Source code has changed since the last compilation.)",
		"A a warm start (AOT compiled model loaded)"} {
		if !strings.Contains(verdict, want) {
			t.Errorf("verdict lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "no difference") {
		t.Errorf("says no difference:\n%s", out)
	}
	js := triagetest.Compare(t, "json", a, b)
	for _, want := range []string{`"steady": {`, `"after_warmup": 2`, `"framework_compile": {`, `"b": 264.63`, `"no_difference": false`} {
		if !strings.Contains(js, want) {
			t.Errorf("json lacks %s:\n%s", want, js)
		}
	}
	diff := triagetest.Diff(t, "text", 300, a, b)
	for _, want := range []string{"Steady state (A → B): compiles after warm-up 0 → 2 · the framework's stated compile time 1.5 s → 264.6 s",
		"B serving log: torch.compile took 264.63 s in total", "A serving log: torch.compile took 1.5 s in total"} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}
	// one log against itself: nothing moved, nothing said of it in the verdict
	same := triagetest.Compare(t, "text", b, b)
	if strings.Contains(lineWith(same, "torchtriage compare"), "warm-up") || strings.Contains(same, "compiles after warm-up 2 → 2;") {
		t.Errorf("a log against itself:\n%s", same)
	}
}

// Stored runs with the probe's step clock (testdata/recorded/after-warmup, torch 2.14.1): the fixed batches against
// the short last batch is "compiles after warm-up 0 → 1"; a run without a step clock (no marker: seconds only)
// against one with is not compared there, and says why.
func TestCompareOfStepClockRuns(t *testing.T) {
	runs := filepath.Join("..", "..", "testdata", "recorded", "after-warmup", "runs")
	out := triagetest.Compare(t, "text", filepath.Join(runs, "0002-breaks"), filepath.Join(runs, "0001-breaks"))
	if !strings.Contains(out, "compiles after warm-up 0 → 1") {
		t.Errorf("fixed against short batch:\n%s", out)
	}
	out = triagetest.Compare(t, "text", filepath.Join(runs, "0004-breaks"), filepath.Join(runs, "0003-breaks"))
	if l := lineWith(out, "not compared: compiles after warm-up: A:"); !strings.Contains(l, "no step was seen") {
		t.Errorf("no clock on A:\n%s", out)
	}
	if strings.Contains(out, "compiles after warm-up 0 → 1;") || strings.Contains(out, "compiles after warm-up 1 → 1") {
		t.Errorf("a side without a clock compared:\n%s", out)
	}
}

package compare_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// compare of one script on torch 2.14.1 and 2.6 (testdata/recorded/int-recompiles): the headline names the torch
// change (it named only Python's), and a process without rank is no "rank -1".
func TestCompareNamesTheTorchVersionChange(t *testing.T) {
	runs := filepath.Join("..", "..", "testdata", "recorded", "int-recompiles", "runs")
	a, b := filepath.Join(runs, "0001-breaks"), filepath.Join(runs, "0002-breaks")
	out := triagetest.Compare(t, "text", a, b)
	if l := lineWith(out, "versions differ"); !strings.Contains(l, "versions differ: version.torch: 2.14.1+debian → 2.6.0+debian") {
		t.Errorf("headline %q\n%s", l, out)
	}
	js := triagetest.Compare(t, "json", a, b)
	if strings.Contains(js, "rank -1") {
		t.Errorf("json names rank -1:\n%s", js)
	}
}

// diff of two stored runs of different scripts says so before anything is called new or gone (testdata/recorded:
// quiet-rank's dist.py against silenced-rank's quiet2.py); runs of one script under two presets (baseline-compile)
// are the same command.
func TestDiffOfRunsOfDifferentCommands(t *testing.T) {
	rec := filepath.Join("..", "..", "testdata", "recorded")
	out := triagetest.Diff(t, "text", 300, filepath.Join(rec, "quiet-rank", "runs", "0013-breaks"), filepath.Join(rec, "silenced-rank", "runs", "0001-breaks"))
	if !strings.Contains(out, "A and B ran different commands") {
		t.Errorf("diff:\n%s", out)
	}
	out = triagetest.Diff(t, "text", 300, filepath.Join(rec, "baseline-compile", "runs", "0008-breaks"), filepath.Join(rec, "baseline-compile", "runs", "0020-trace"))
	if strings.Contains(out, "different commands") {
		t.Errorf("diff of one script's runs:\n%s", out)
	}
}

// compare shows each side's capture beside its graph breaks, from the probes (testdata/recorded/int-recompiles:
// one script on 2.14.1 and 2.6), in text and JSON; a capture that moved only with the recompiles is no headline.
func TestCompareShowsCoverageBesideBreaks(t *testing.T) {
	runs := filepath.Join("..", "..", "testdata", "recorded", "int-recompiles", "runs")
	a, b := filepath.Join(runs, "0001-breaks"), filepath.Join(runs, "0002-breaks")
	out := triagetest.Compare(t, "text", a, b)
	want := "Coverage (A → B): graph breaks 0 → 0 · calls captured 10 → 9 · graphs 10 → 8 · fallbacks to eager 0 → 0"
	if !strings.Contains(out, want) || strings.Contains(lineWith(out, "versions differ"), "calls captured") {
		t.Errorf("want %q, and no capture in the headline:\n%s", want, out)
	}
	js := triagetest.Compare(t, "json", a, b)
	if !strings.Contains(js, `"coverage": {`) || !strings.Contains(js, `"calls_captured": 10`) || !strings.Contains(js, `"fallbacks_to_eager": 0`) {
		t.Errorf("json lacks the coverage:\n%s", js)
	}
}

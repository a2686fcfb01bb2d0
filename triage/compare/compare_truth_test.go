package compare_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

type compareDoc struct {
	Verdict     string   `json:"verdict"`
	Same        bool     `json:"no_difference"`
	NotCompared []string `json:"not_compared"`
}

func compareJSON(t *testing.T, a, b string) compareDoc {
	t.Helper()
	out := triagetest.Compare(t, "json", a, b)
	var d compareDoc
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return d
}

// compare says nothing of settings a side did not record (an exploratory round: a bare TORCH_TRACE dir against a
// probed run read "caches, versions and settings unchanged: machine load or noise?", and a run dir against a log
// "entries not found, no recorded setting differs"), and no "no difference" where a side's torch version is unknown.
func TestCompareSaysWhatSettingsItDidNotCompare(t *testing.T) {
	td := filepath.Join("..", "..", "testdata")
	d := compareJSON(t, filepath.Join(td, "compile", "torch-2.14", "c01_mlp.cold.trace"), filepath.Join(td, "compile", "runs-2.14", "0004-trace"))
	if strings.Contains(d.Verdict, "settings unchanged") || !strings.Contains(strings.Join(d.NotCompared, "\n"), "settings") {
		t.Errorf("trace vs run dir: %+v", d)
	}
	d = compareJSON(t, filepath.Join(td, "compile", "runs-2.14", "0002-trace"), filepath.Join(td, "compile", "torch-2.14", "c01_mlp.cold.log"))
	if strings.Contains(d.Verdict, "no recorded setting differs") {
		t.Errorf("run dir vs log: %+v", d)
	}
	d = compareJSON(t, filepath.Join(td, "fixtures", "torch-2.6", "gb_recompile.trace"), filepath.Join(td, "fixtures", "torch-2.14", "gb_recompile.trace"))
	if d.Same || d.Verdict == "no difference" {
		t.Errorf("2.6 vs 2.14 traces: %+v", d)
	}
}

// A cache switch is a cause only of the cache it switches, and only where A made no lookup: functorch's
// enable_autograd_cache read as the cause of an FX graph cache miss → hit (A had FX lookups), and of PGO's
// none → hit between 2.6 (no local PGO) and 2.14.
func TestCompareCacheSwitchCause(t *testing.T) {
	td := filepath.Join("..", "..", "testdata")
	d := compareJSON(t, filepath.Join(td, "recorded", "peer-abort", "runs-2.6", "0001-breaks"), filepath.Join(td, "recorded", "peer-abort", "runs", "0001-breaks"))
	if strings.Contains(d.Verdict, "FX graph cache miss → hit (caches enabled by functorch") {
		t.Errorf("peer-abort 2.6 vs 2.14: %s", d.Verdict)
	}
	d = compareJSON(t, filepath.Join(td, "compile", "runs-2.6", "0002-trace"), filepath.Join(td, "compile", "runs-2.14", "0002-trace"))
	if strings.Contains(d.Verdict, "PGO code state none → hit (caches enabled by functorch") {
		t.Errorf("runs 2.6 vs 2.14: %s", d.Verdict)
	}
}

// The verdict's leading phase changes the way the total does (it read "+5.9 s compile: kernels -4.0 s"), and
// findings that changed in count are named (r01 2.6 vs 2.14 led with "no difference in what both sides show").
func TestCompareVerdictLeadsWithTheTotalsDirection(t *testing.T) {
	td := filepath.Join("..", "..", "testdata")
	d := compareJSON(t, filepath.Join(td, "compile", "runs-2.14", "0001-trace"), filepath.Join(td, "compile", "runs-gpu", "0001-trace"))
	if strings.Contains(d.Verdict, "compile (") && strings.Contains(d.Verdict, ": kernels -") && strings.HasPrefix(d.Verdict, "+") {
		t.Errorf("lead phase against the total: %s", d.Verdict)
	}
	d = compareJSON(t, filepath.Join(td, "fixtures", "torch-2.6", "r01_branch_print.triage.log"), filepath.Join(td, "fixtures", "torch-2.14", "r01_branch_print.triage.log"))
	if !strings.Contains(d.Verdict, "changed") {
		t.Errorf("r01: %s", d.Verdict)
	}
}

// compare leads with what makes the two runs no pair: a side that compiled nothing (TORCHDYNAMO_DISABLE=1 was
// listed unstarred under settings, the headline naming a cache dir), and runs of different commands (diff warns,
// compare did not).
func TestCompareSaysWhenTheRunsAreNoPair(t *testing.T) {
	td := filepath.Join("..", "..", "testdata")
	d := compareJSON(t, filepath.Join(td, "recorded", "compile-off", "runs", "0001-breaks"), filepath.Join(td, "compile", "runs-2.14", "0001-trace"))
	if !strings.HasPrefix(d.Verdict, "A compiled nothing") {
		t.Errorf("compile-off: %s", d.Verdict)
	}
	d = compareJSON(t, filepath.Join(td, "compile", "runs-2.14", "0001-trace"), filepath.Join(td, "compile", "runs-gpu", "0001-trace"))
	if !strings.Contains(d.Verdict, "different commands") {
		t.Errorf("c01 vs g20: %s", d.Verdict)
	}
}

// TORCH_LOGS names in another order are no setting difference, and a variable the tool's preset set is said to be
// the tool's (the cudagraphs preset's TORCHINDUCTOR_FORCE_DISABLE_CACHES=1 was starred and named as the cause of
// the cache change, as if the user had set it).
func TestCompareSettingsTheToolSet(t *testing.T) {
	td := filepath.Join("..", "..", "testdata", "gpu-e2e")
	out := triagetest.Compare(t, "text", filepath.Join(td, "0001-cudagraphs"), filepath.Join(td, "0008-custom"))
	if strings.Contains(out, "TORCH_LOGS:") {
		t.Errorf("TORCH_LOGS in another order:\n%s", out)
	}
	out = triagetest.Compare(t, "text", filepath.Join(td, "e2e-20261123", "0001-cudagraphs"), filepath.Join(td, "e2e-20261123", "0002-breaks"))
	if l := lineWith(out, "TORCHINDUCTOR_FORCE_DISABLE_CACHES"); !strings.Contains(l, "set by torchtriage") {
		t.Errorf("preset's variable: %q\n%s", l, out)
	}
}

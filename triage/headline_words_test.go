package triage_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/findings"
)

// A steady verdict names what it set aside, and only that: r11's transformer read "(0 graph breaks by design,
// 1 expected recompile)".
func TestSteadyVerdictNamesOnlyWhatWasSetAside(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/r11_transformer.dynamo_debug.log")), nil, nil)
	if s := a.Verdict.Summary; !strings.HasPrefix(s, "steady state: no unexpected graph break or recompile (1 expected recompile);") {
		t.Errorf("verdict %q", s)
	}
}

// A break whose function the input does not show (its user traceback was not pasted) is not placed "in module
// code": that is a guess; the title says where it is, and no more.
func TestBreakTitleWithoutItsFunction(t *testing.T) {
	data, err := os.ReadFile(Fx("torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	paste := filepath.Join(t.TempDir(), "paste.txt")
	os.WriteFile(paste, []byte(strings.Join(strings.SplitAfter(string(data), "\n")[:12], "")), 0o644)
	a := triage.Analyze(triage.LoadReport(t, paste), nil, nil)
	for _, f := range a.Findings {
		if f.Kind == findings.KindGraphBreak && (strings.Contains(f.Title, "module code") || !strings.HasPrefix(f.Title, "print() breaks the graph at gb_recompile.py:12")) {
			t.Errorf("title %q (function %q)", f.Title, f.Function)
		}
	}
}

// A compile-time headline whose phase is not known on one side (a warm run's trace without inductor time) names
// the frame plainly: it read "-4.1 s compile (5.2 s → 1.0 s): on `f` [0/0]" (real 2.14.1 cold/warm runs).
func TestCompareHeadlineWithoutPhase(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	res := &compare.Result{Compile: &compare.Delta{What: "total", A: f(5.16), B: f(1.04), DeltaS: f(-4.12), Big: true},
		Frames: []compare.Delta{{What: "`f` [0/0]", A: f(5.16), B: f(1.04), DeltaS: f(-4.12), Big: true}}}
	if got, _ := res.DecideVerdict(); !strings.HasPrefix(got, "-4.1 s compile (5.2 s → 1.0 s) in `f` [0/0] -4.1 s;") {
		t.Errorf("%q", got)
	}
	res.Phases = []compare.Delta{{What: "triton", DeltaS: f(-1.2), Big: true}}
	// the phase's change and the frame's are apart: a phase's is the sum over frames (TestCompareHeadlineKeepsPhaseAndFrameApart)
	if got, _ := res.DecideVerdict(); !strings.HasPrefix(got, "-4.1 s compile (5.2 s → 1.0 s): triton -1.2 s; most in `f` [0/0] -4.1 s;") {
		t.Errorf("%q", got)
	}
}

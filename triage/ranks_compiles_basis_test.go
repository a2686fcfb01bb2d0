package triage

import (
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/report"
)

// The verdict's basis names the probe's compile states where rank agreement states a compiles difference (the
// ranks whose states it compared), and not where the states show none.
func TestBasisNamesCompileStatesOfADifference(t *testing.T) {
	differ := []report.ProbeCompileState{CompileState(0, 1, "0/0", "step", 6), CompileState(1, 2, "1/0", "step", 6),
		CompileState(2, 2, "1/0", "step", 6)}
	a := CompilesRun(3, report.OutcomeStopped, differ, nil)
	if a.RankAgreement.Compiles == nil || !slices.Contains(a.Verdict.Basis, "probe compile states of ranks 0–2") {
		t.Errorf("basis %q", a.Verdict.Basis)
	}
	same := []report.ProbeCompileState{CompileState(0, 2, "1/0", "step", 6), CompileState(1, 2, "1/0", "step", 6)}
	a = CompilesRun(2, report.OutcomeStopped, same, nil)
	if a.RankAgreement.Compiles != nil || strings.Contains(strings.Join(a.Verdict.Basis, "; "), "compile states") {
		t.Errorf("the same compiles: basis %q", a.Verdict.Basis)
	}
}

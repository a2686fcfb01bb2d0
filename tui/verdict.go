package tui

import (
	"strings"

	"github.com/torchtriage/torchtriage/triage"
)

// verdictLines word the analysis's verdict of a finished run with nothing in the lists: its state and summary
// (steady, not steady, no evidence, stopped by torchtriage), then the next step.
func (m *Model) verdictLines(r *runView) []string {
	v := r.snap.analysis.Verdict
	mark := map[string]string{triage.StateSteady: "✓ ", triage.StateNotSteady: "✗ ", triage.StateNoEvidence: "? ",
		triage.StateStopped: "■ ", triage.StateDidNotStart: "✗ ", triage.StateHung: "✗ "}[v.State]
	sum := v.Summary
	if !strings.HasSuffix(sum, "?") && !strings.HasSuffix(sum, ".") {
		sum += "."
	}
	lines := append([]string{mark + sum}, r.snap.analysis.SteadyCaveats()...)
	return append(lines, "n: next step of the checklist.")
}

// hungText is, for a launched run the analysis calls hung (during it too, once stack dumps or a collective's
// timeout show where each rank waits), its verdict as report words it: "Hung: rank 0 waits in all_reduce at
// train.py:11 · rank 1 in barrier at train.py:13 — ranks call different collectives"; "" otherwise (an opened
// run says its verdict on the open line).
func (m *Model) hungText() string {
	r := m.cur
	if r == nil || r.snap == nil || r.snap.analysis == nil || r.snap.analysis.Verdict.State != triage.StateHung {
		return ""
	}
	sum := clean(r.snap.analysis.Verdict.Summary)
	return strings.ToUpper(sum[:1]) + sum[1:]
}

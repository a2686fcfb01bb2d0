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

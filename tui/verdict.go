package tui

import (
	"github.com/torchtriage/torchtriage/triage"
)

// verdictLines word the analysis's verdict of a finished run with nothing in the lists: its state and summary
// (steady, not steady, no evidence, stopped by torchtriage), then the next step.
func (m *Model) verdictLines(r *runView) []string {
	v := r.snap.analysis.Verdict
	mark := map[string]string{triage.StateSteady: "✓ ", triage.StateNotSteady: "✗ ", triage.StateNoEvidence: "? ",
		triage.StateStopped: "■ ", triage.StateDidNotStart: "✗ "}[v.State]
	return []string{mark + v.Summary + ".", "n: next step of the checklist."}
}

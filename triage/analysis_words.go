package triage

import "github.com/torchtriage/torchtriage/triage/ranks"

// NoTorchText words the counts of inputs without torch output, as `torchtriage log` does: their zeros are no
// count of anything (the JSON keeps them, with evidence.torch_seen false). A process may still have died of a
// plain Python error: its runtime errors are counted (the caller adds them). "" when torch output was seen.
func (an *Analysis) NoTorchText() string {
	switch {
	case an.Evidence.TorchSeen:
		return ""
	case an.Report.Counts.RuntimeErrors > 0:
		return "no torch output: no torch.compile event counted"
	}
	return "no torch output: nothing counted"
}

// SteadyCaveats are what a steady verdict could not look at, a sentence each: CUDA-graph skips and partitions
// not logged (the report's "Nothing to report" and the TUI's verdict pane say them).
func (an *Analysis) SteadyCaveats() []string {
	if an.Verdict.State != StateSteady {
		return nil
	}
	var out []string
	if why := an.SkipsNotLogged(); why != "" {
		out = append(out, an.Evidence.LoggingOf(false).Absent("CUDA-graph skips")+" ("+why+").")
	}
	if an.PartitionsNotLogged() {
		out = append(out, "Non-cudagraphable partitions and CUDA-graph re-recordings were not logged (they print only with TORCH_LOGS "+
			"cudagraphs: --preset cudagraphs); since 2.9 a graph left partly out of CUDA graphs prints a partition, not a skip.")
	}
	return out
}

// UnknownRankLines words an analysis's ranks without records (its report's per_rank_unknown), as the text
// report's "Per rank" does: the TUI's legend under its per-rank table.
func (a *Analysis) UnknownRankLines() []string {
	var out []string
	for _, l := range ranks.UnknownRankGroups(a.Report.PerRankUnknown) {
		out = append(out, l.Text)
	}
	return out
}

// Hung is where each rank of a run that hung waits (its hang's summary), "" unless the verdict is hung: the one
// test the gate, its stderr and the checklist share.
func (a *Analysis) Hung() string {
	if a.Verdict.State != StateHung || a.Hang == nil {
		return ""
	}
	return a.Hang.Summary
}

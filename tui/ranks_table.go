package tui

import (
	"fmt"

	"charm.land/lipgloss/v2"
)

// counted: the report has counts of rank rk (records of the log name it). A rank the analysis knows only from the
// probes or torchrun's launcher (it printed no record with its prefix) has none: not 0, not known.
func (s *snapshot) counted(rk int) bool {
	_, ok := s.perRank[rk]
	return ok
}

// unnamedRanks is the ranks the analysis knows that no record names (the report's per_rank_unknown).
func (s *snapshot) unnamedRanks() []int {
	if s.report == nil {
		return nil
	}
	var out []int
	for _, u := range s.report.PerRankUnknown {
		out = append(out, u.Rank)
	}
	return out
}

// silenced: a process counted what its log does not show (the report's "not in the log"): no count of the log
// stands, limit hits included (triage.Analysis.LimitHitsValue), each is a floor.
func (s *snapshot) silenced() bool { return s.analysis != nil && s.analysis.Evidence.LogSilenced != "" }

// perRankTable is the Ranks view's "Per rank" section: the report's per-rank counts of every rank the analysis
// knows, "–" where a count is not known (not logged, not in the log, no record of the rank), nothing for a single
// process (no ranks).
func (m *Model) perRankTable(s *snapshot, w int) []string {
	th, r := m.th, m.cur
	if len(s.ranks) == 0 {
		return nil
	}
	// a crashed rank shows its runtime error beside the compile errors (one "errors" column read 0 for both ranks
	// of the NCCL crash)
	const perRankRow = "   %-5s %6s  %7s  %10s  %6s  %11s  %11s" // 70 columns: fits 80
	lines := []string{"", th.title.Render(" Per rank"),
		th.dim.Render(fmt.Sprintf(perRankRow, "rank", "breaks", "records", "recompiles", "limits", "compile err", "runtime err"))}
	noBreaks, noRecompiles := r.notLogged(paneBreaks), r.notLogged(paneRecompiles)
	floorBreaks, floorRecompiles := s.partial(paneBreaks), s.partial(paneRecompiles)
	// no torch output: nothing was counted, the zeros of limit hits and errors included (as the report says)
	noTorch := r.done && s.analysis != nil && !s.analysis.Evidence.TorchSeen
	for _, rk := range s.ranks {
		name := fmt.Sprintf("r%d", rk)
		if !s.counted(rk) {
			lines = append(lines, fmt.Sprintf(perRankRow, name, "–", "–", "–", "–", "–", "–"))
			continue
		}
		c := s.perRank[rk]
		lines = append(lines, fmt.Sprintf(perRankRow, name, countOr(c.GraphBreaks, noBreaks, floorBreaks),
			countOr(c.GraphBreakRecords, noBreaks, floorBreaks), countOr(c.Recompiles, noRecompiles, floorRecompiles),
			countOr(c.RecompileLimitHits, noTorch, s.silenced()), countOr(c.CompileErrors, noTorch, false),
			countOr(c.RuntimeErrors, noTorch, false)))
	}
	switch {
	case noTorch: // the legend of the rows' "–"
		lines = append(lines, th.dim.Render("   – nothing counted: no torch output"))
	case noBreaks || noRecompiles || floorBreaks || floorRecompiles:
		lines = append(lines, legend(th.dim, "– "+s.logging().Words()+s.logging().Cause(), w)...)
	}
	if s.analysis != nil && !noTorch { // as the report's "Per rank" words them
		for _, l := range s.analysis.UnknownRankLines() {
			lines = append(lines, legend(th.dim, "– "+l, w)...)
		}
	}
	if floorBreaks || floorRecompiles {
		lines = append(lines, th.dim.Render("   ≥ at least: some printed while not logged, others did not"))
	}
	return lines
}

// legend is a note under the table, word-wrapped to the view's inner width w, its lines indented under its text.
func legend(st lipgloss.Style, s string, w int) []string {
	var out []string
	for i, l := range wrapText(s, max(w-7, 20)) {
		lead := "   "
		if i > 0 {
			lead = "     "
		}
		out = append(out, st.Render(lead+l))
	}
	return out
}

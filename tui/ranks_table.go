package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/story"
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

// probeCells are the Per rank table's cells of rank rk, which no log record names (per_rank_unknown): 0ᵖ where its
// probe counted none of the column's quantity (probe_counts: what rank agreement compares it on, the report's 0s of
// it), "–" where it is not known (runtime errors: no probe counts them).
func (s *snapshot) probeCells(rk int) []any {
	var u report.RankWithoutRecords
	if s.report != nil {
		u, _ = ranks.UnknownRank(s.report.PerRankUnknown, rk)
	}
	// the report's breaks, recompiles, limit hits, skips, compile errors, runtime errors; records are of breaks
	q := ranks.PerRankQuantities
	cols := []string{q[0], q[0], q[1], q[2], q[3], q[4], q[5]}
	out := make([]any, len(cols))
	for i, c := range cols {
		out[i] = "–"
		if u.ProbeNone(c) {
			out[i] = probeMark
		}
	}
	return out
}

// perRankTable is the Ranks view's "Per rank" section: the counts of every rank the analysis knows, of the kinds
// the report's "Per rank" counts (and the breaks' records), each worded by the rules the report, the ranks strip,
// the runs list and the bringup log word counts by (story.Rules: "≥3" where the run did not complete or still
// runs, or where some printed while the kind was not logged), "–" where no count stands (not logged, not in the
// log, nothing counted, no record of the rank), 0ᵖ where no record names the rank and its probe counted none
// (probeCells), a legend for each; nothing for a single process (no ranks).
func (m *Model) perRankTable(s *snapshot, w int) []string {
	th, a := m.th, s.analysis
	if len(s.ranks) == 0 || a == nil || a.Report == nil {
		return nil
	}
	// a crashed rank shows its runtime error beside the compile errors (one "errors" column read 0 for both ranks
	// of the NCCL crash)
	const perRankRow = "   %-5s %6s  %7s  %10s  %6s  %5s  %11s  %11s" // 77 columns: fits 80
	lines := []string{"", th.title.Render(" Per rank"),
		th.dim.Render(fmt.Sprintf(perRankRow, "rank", "breaks", "records", "recompiles", "limits", "skips", "compile err", "runtime err"))}
	// none: the one phrase for counts of which none stands ("no torch output: nothing counted", "nothing compiled
	// (…)"); absent, unfinished, notAllLogged: what the legends explain ("–", "≥" of a run cut short, "at least")
	rl, none := story.RulesOf(a), story.Uncounted(a)
	var absent, unfinished, notAllLogged bool
	cell := func(key string, n int) string {
		cw := rl.Word(key, n, story.ShortNouns)
		switch {
		case none != "" && n == 0: // where nothing was counted, a runtime error that happened is all that shows
			return "–"
		case !cw.Counted():
			absent = absent || cw.Value != "—" // "—": nothing counted, which Uncounted words below
			return "–"
		case strings.HasPrefix(cw.Words, "at least "):
			notAllLogged = true
		case strings.HasPrefix(cw.Value, "≥"):
			unfinished = true
		}
		return cw.Value
	}
	for _, rk := range s.ranks {
		name := fmt.Sprintf("r%d", rk)
		if !s.counted(rk) { // no record names it: 0ᵖ where its probe counted none, the legend below says the rest
			lines = append(lines, fmt.Sprintf(perRankRow, append([]any{name}, s.probeCells(rk)...)...))
			continue
		}
		c := s.perRank[rk]
		lines = append(lines, fmt.Sprintf(perRankRow, name, cell(story.CountGraphBreaks, c.GraphBreaks),
			cell(story.CountGraphBreaks, c.GraphBreakRecords), cell(story.CountRecompiles, c.Recompiles),
			cell(story.CountLimitHits, c.RecompileLimitHits), cell(story.CountCudagraphSkips, c.CudagraphSkips),
			cell(story.CountCompileErrors, c.CompileErrors), cell(story.CountRuntimeErrors, c.RuntimeErrors)))
	}
	if none != "" {
		lines = append(lines, legend(th.dim, "– "+none, w)...)
	}
	if absent {
		lines = append(lines, legend(th.dim, "– "+s.logging().Words()+s.logging().Cause(), w)...)
	}
	for _, l := range a.UnknownRankLines() { // as the report's "Per rank" words them: its 0s, the rest not known
		lines = append(lines, legend(th.dim, "– "+l, w)...)
	}
	if unfinished {
		lines = append(lines, legend(th.dim, "≥ at least: the counts of what the run reached ("+a.Unfinished()+")", w)...)
	}
	switch {
	case notAllLogged && a.Evidence.LogSilenced != "": // its name was on: the log lost some (the report's words)
		lines = append(lines, legend(th.dim, "≥ at least: not all in the log (some reached it, others did not)", w)...)
	case notAllLogged:
		lines = append(lines, legend(th.dim, "≥ at least: some printed while not logged, others did not", w)...)
	}
	return lines
}

// legend is a note under the table, word-wrapped to the view's inner width w, its lines indented under its text.
func legend(st lipgloss.Style, s string, w int) []string {
	out := hang(s, max(w-7, 20), "   ", "     ")
	for i, l := range out {
		out[i] = st.Render(l)
	}
	return out
}

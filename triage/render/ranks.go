package render

import (
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// maxPerRankLines bounds the "Per rank" section: past it, the JSON (per_rank) has every rank.
const MaxPerRankLines = 16

// rankCounts is a set of ranks whose counts are identical.
type rankCounts struct {
	Ranks []int
	c     report.Counts
}

// groupPerRank groups the ranks of a report's per_rank by identical counts: the largest group first (as rank
// agreement puts its reference first), then by first rank. A 1024-rank job where every rank agrees is one group.
func GroupPerRank(perRank map[string]report.Counts) []rankCounts {
	at := map[report.Counts]int{}
	var out []rankCounts
	keys := make([]int, 0, len(perRank))
	for k := range perRank {
		n, _ := strconv.Atoi(k)
		keys = append(keys, n)
	}
	sort.Ints(keys)
	for _, r := range keys {
		c := perRank[strconv.Itoa(r)]
		i, ok := at[c]
		if !ok {
			i = len(out)
			at[c] = i
			out = append(out, rankCounts{c: c})
		}
		out[i].Ranks = append(out[i].Ranks, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].Ranks) > len(out[j].Ranks) })
	return out
}

// writePerRank prints the "Per rank" section: one line per group of ranks with the same counts, then the ranks no
// log record names (the report's per_rank_unknown: counts not known, not 0), bounded as one list.
func WritePerRank(t *text.Writer, rep *report.Report, an *triage.Analysis) {
	if len(rep.PerRank)+len(rep.PerRankUnknown) <= 1 {
		return
	}
	t.Blank()
	t.Line(0, "Per rank")
	groups := GroupPerRank(rep.PerRank)
	lines := make([]ranks.RankLine, 0, len(groups)+len(rep.PerRankUnknown))
	for _, g := range groups {
		lines = append(lines, ranks.RankLine{Ranks: len(g.Ranks), Text: report.RankWord(g.Ranks) + ": " + CountsText(g.c, an)})
	}
	lines = append(lines, ranks.UnknownRankGroups(rep.PerRankUnknown)...)
	for i, l := range lines {
		if i == MaxPerRankLines {
			n := 0
			for _, l := range lines[i:] {
				n += l.Ranks
			}
			t.Linef(4, "  … %s of ranks (%s): --format json has every rank", report.Plural(len(lines)-i, "more group"), report.Plural(n, "rank"))
			break
		}
		t.Line(4, "  "+l.Text)
	}
}

// countsText words one rank's counts: "3 breaks, 1 recompiles, 0 limit hits, …", "breaks not logged" where the
// report's counts line says so, its one phrase where nothing was counted (Uncounted; an may be nil: every count
// shown).
func CountsText(c report.Counts, an *triage.Analysis) string {
	if none := an.Uncounted(); none != "" { // as the counts line: its zeros mean nothing, its runtime errors count
		if c.RuntimeErrors > 0 {
			none += ", " + an.FloorIfUnfinished(report.Plural(c.RuntimeErrors, "runtime error"))
		}
		return none
	}
	breaks, recompiles, skips := report.Plural(c.GraphBreaks, "break"), report.Plural(c.Recompiles, "recompile"), report.Plural(c.CudagraphSkips, "skip")
	limits := report.Plural(c.RecompileLimitHits, "limit hit")
	if an != nil {
		ev := an.Evidence
		breaks, recompiles = report.Tally(c.GraphBreaks, ev.LoggingOf(ev.GraphBreaksLogged), "break"), report.Tally(c.Recompiles, ev.LoggingOf(ev.RecompilesLogged), "recompile")
		if !an.SkipsCounted() {
			skips = report.Tally(c.CudagraphSkips, ev.LoggingOf(false), "skip")
		}
		if ev.LogSilenced != "" { // no count of a silenced log stands (the counts line's LimitHitsValue)
			limits = report.Tally(c.RecompileLimitHits, report.LoggingSilenced, "limit hit")
		}
	}
	items := []string{breaks, recompiles, limits, skips, report.Plural(c.CompileErrors, "compile error"), report.Plural(c.RuntimeErrors, "runtime error")}
	if an != nil && an.CountsAreFloors() { // the counts line's floors ("≥0 breaks")
		for i := range items {
			items[i] = report.Floor(items[i])
		}
	}
	return strings.Join(items, ", ")
}

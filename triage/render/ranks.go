package render

import (
	"fmt"
	"slices"
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
	keys := make([]int, 0, len(perRank))
	for k := range perRank {
		n, _ := strconv.Atoi(k)
		keys = append(keys, n)
	}
	groups := groupRanks(keys, func(r int) report.Counts { return perRank[strconv.Itoa(r)] })
	out := make([]rankCounts, len(groups))
	for i, g := range groups {
		out[i] = rankCounts{Ranks: g, c: perRank[strconv.Itoa(g[0])]}
	}
	return out
}

// groupRanks groups ranks by an equal key (what a line of theirs shows): each group in rank order, the largest
// group first, then by first rank. The "Per rank" section and the compile-time table group alike.
func groupRanks[K comparable](ranks []int, key func(rank int) K) [][]int {
	ranks = slices.Sorted(slices.Values(ranks))
	at := map[K]int{}
	var out [][]int
	for _, r := range ranks {
		k := key(r)
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], r)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// moreGroupsText is the line that ends a bounded list of rank groups: "… 3 more groups of ranks (40 ranks):
// --format json has every rank".
func moreGroupsText(groups, ranks int) string {
	return fmt.Sprintf("… %s of ranks (%s): --format json has every rank", report.Plural(groups, "more group"), report.Plural(ranks, "rank"))
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
			t.Line(4, "  "+moreGroupsText(len(lines)-i, n))
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

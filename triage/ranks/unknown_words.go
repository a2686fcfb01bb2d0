package ranks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// PerRankQuantities are the counts of a "Per rank" line, in its order (breaks, recompiles, limit hits, skips,
// compile errors, runtime errors), each with the quantity rank agreement compares it in: what a probe's counters
// may count none of (ProbeNone); "" for runtime errors, which no probe counts. A rank whose probe counted no
// recompile (one frame compile at most) hit no recompile limit either.
var PerRankQuantities = []string{QuantityGraphBreaks, QuantityRecompiles, QuantityRecompiles, QuantityCudagraphSkips,
	QuantityCompileErrors, ""}

// perRankNouns are the nouns of the "Per rank" line's counts, in PerRankQuantities' order.
var perRankNouns = []string{"break", "recompile", "limit hit", "skip", "compile error", "runtime error"}

// unknownRankGroups words the ranks without records for the text report's "Per rank" and the TUI's Ranks view,
// one line per group of ranks alike (what shows them, what their probes counted): "rank 0: counts not known: no
// log record names it (known from its probe)"; of ranks whose probes counted none of some quantities
// (RankWithoutRecords.Probe, what rank agreement compares them on), those as 0 and the rest as not known:
// "rank 0: 0 breaks, recompiles not known, …; no log record names it: the 0s are as its probe counted (it also
// counted 3 frame compiles, which may be recompiles)".
func UnknownRankGroups(us []report.RankWithoutRecords) []RankLine {
	type group struct {
		ranks []int
		u     report.RankWithoutRecords
	}
	var groups []group
	for _, u := range us {
		i := slices.IndexFunc(groups, func(g group) bool {
			a, b := g.u, u
			a.Rank, b.Rank = 0, 0
			return SameRankWithoutRecords(a, b)
		})
		if i < 0 {
			i = len(groups)
			groups = append(groups, group{u: u})
		}
		groups[i].ranks = append(groups[i].ranks, u.Rank)
	}
	out := make([]RankLine, 0, len(groups))
	for _, g := range groups {
		one := len(g.ranks) == 1
		it, its, probe, each := "them", "their", "probes", " each"
		if one {
			it, its, probe, each = "it", "its", "probe", ""
		}
		if u := g.u; u.Probe != nil && len(u.Probe.None) > 0 {
			out = append(out, RankLine{Ranks: len(g.ranks), Text: probeCountsLine(g.ranks, u)})
			continue
		}
		line := report.RankWord(g.ranks) + ": counts not known: no log record names " + it
		switch u := g.u; {
		case u.ProbeFrames != nil && *u.ProbeFrames == 0:
			line += fmt.Sprintf("; %s %s counted no compiled frame", its, probe)
		case u.ProbeFrames != nil:
			line += fmt.Sprintf("; %s %s counted %s%s", its, probe, report.Plural(*u.ProbeFrames, "compiled frame"), each)
		case slices.Contains(u.KnownFrom, KnownFromProbe):
			line += fmt.Sprintf(" (known from %s %s)", its, probe)
		case len(u.KnownFrom) > 0:
			var from []string
			for _, k := range u.KnownFrom {
				from = append(from, map[string]string{KnownFromWorldSize: "a probe's WORLD_SIZE", KnownFromLauncher: "the launcher"}[k])
			}
			line += " (known from " + strings.Join(from, " and ") + ")"
		}
		out = append(out, RankLine{Ranks: len(g.ranks), Text: line})
	}
	return out
}

// probeCountsLine is the "Per rank" line of ranks alike whose probes counted none of some quantities: each count
// in the order of the others' lines, 0 where the probes counted none of its quantity, "not known" where not, and
// whose the 0s are: "rank 0: 0 breaks, 0 recompiles, 0 limit hits, 0 skips, 0 compile errors, runtime errors not
// known; no log record names it: the 0s are as its probe counted (1 compiled frame)".
func probeCountsLine(ranks []int, u report.RankWithoutRecords) string {
	items := make([]string, len(perRankNouns))
	for i, noun := range perRankNouns {
		items[i] = report.Plural(0, noun)
		if !u.ProbeNone(PerRankQuantities[i]) {
			items[i] = strings.TrimPrefix(items[i], "0 ") + " not known"
		}
	}
	note := "; no log record names it: the 0s are as its probe counted"
	also, each := "it also", ""
	if len(ranks) > 1 {
		note, also, each = "; no log record names them: the 0s are as their probes counted", "each also", " each"
	}
	switch p := u.Probe; {
	case len(p.Counted) > 0:
		note += fmt.Sprintf(" (%s counted %s)", also, playbooks.JoinAnd(p.Counted))
	case u.ProbeFrames != nil && *u.ProbeFrames == 0:
		note += " (no compiled frame)"
	case u.ProbeFrames != nil:
		note += " (" + report.Plural(*u.ProbeFrames, "compiled frame") + each + ")"
	}
	return report.RankWord(ranks) + ": " + strings.Join(items, ", ") + note
}

// rankLine is one line of the "Per rank" section and the ranks it stands for.
type RankLine struct {
	Ranks int
	Text  string
}

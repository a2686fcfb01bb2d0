package triage

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// What shows a rank that no log record names (RankWithoutRecords.KnownFrom).
const (
	KnownFromProbe     = "probe"      // the rank's own probe file
	KnownFromWorldSize = "world_size" // another process's WORLD_SIZE, as its probe recorded it
	KnownFromLauncher  = "launcher"   // the launcher's process count (torchrun --nproc-per-node, WORLD_SIZE)
)

// RankWithoutRecords is a rank the analysis knows (evidence.ranks: the probes', the launcher's) that no log record
// names: per_rank has no counts of it, since what it logged is not known (not 0: its output may carry no rank
// prefix, or be missing from the capture). KnownFrom says what shows it; ProbeFrames is the frames its probe
// counted compiled (Dynamo's counters), nil where no probe of it recorded them.
type RankWithoutRecords struct {
	Rank        int      `json:"rank"`
	KnownFrom   []string `json:"known_from"`
	ProbeFrames *int     `json:"probe_frames_compiled,omitempty"`
}

// ranksWithoutRecords lists the ranks of ranks (the analysis's, worldRanks) that the report has no counts of,
// with what shows each, by the same rules as worldRanks.
func ranksWithoutRecords(rep *Report, ranks []int, run *RunFacts, probes []ProcessInfo, torchRan bool) []RankWithoutRecords {
	out := []RankWithoutRecords{}
	for _, r := range ranks {
		if _, ok := rep.PerRank[strconv.Itoa(r)]; ok || r < 0 {
			continue
		}
		u := RankWithoutRecords{Rank: r, KnownFrom: []string{}}
		own, world, frames, counted := false, false, 0, false
		for _, p := range probes {
			if p.Rank == r && (p.WorldSize > 1 || len(probes) > 1) {
				own = true
				if p.Counters != nil { // Dynamo's counters were read: a frame it compiled is in them
					frames, counted = frames+int(p.Counters["frames"]["ok"]), true
				}
			}
			world = world || p.WorldSize > 1 && r < p.WorldSize
		}
		if own {
			u.KnownFrom = append(u.KnownFrom, KnownFromProbe)
		}
		if world {
			u.KnownFrom = append(u.KnownFrom, KnownFromWorldSize)
		}
		if run != nil && run.WorldSize > 1 && r < run.WorldSize && torchRan {
			u.KnownFrom = append(u.KnownFrom, KnownFromLauncher)
		}
		if counted {
			u.ProbeFrames = &frames
		}
		out = append(out, u)
	}
	return out
}

// unknownRankGroups words the ranks without records for the text report's "Per rank" and the TUI's Ranks view,
// one line per group of ranks alike (what shows them, the frames their probes counted): "rank 0: counts not known:
// no log record names it; its probe counted 1 compiled frame".
func unknownRankGroups(us []RankWithoutRecords) []rankLine {
	type group struct {
		ranks []int
		u     RankWithoutRecords
	}
	var groups []group
	for _, u := range us {
		i := slices.IndexFunc(groups, func(g group) bool {
			return sameRankWithoutRecords(RankWithoutRecords{KnownFrom: g.u.KnownFrom, ProbeFrames: g.u.ProbeFrames},
				RankWithoutRecords{KnownFrom: u.KnownFrom, ProbeFrames: u.ProbeFrames})
		})
		if i < 0 {
			i = len(groups)
			groups = append(groups, group{u: u})
		}
		groups[i].ranks = append(groups[i].ranks, u.Rank)
	}
	out := make([]rankLine, 0, len(groups))
	for _, g := range groups {
		one := len(g.ranks) == 1
		it, its, probe, each := "them", "their", "probes", " each"
		if one {
			it, its, probe, each = "it", "its", "probe", ""
		}
		line := rankWord(g.ranks) + ": counts not known: no log record names " + it
		switch u := g.u; {
		case u.ProbeFrames != nil && *u.ProbeFrames == 0:
			line += fmt.Sprintf("; %s %s counted no compiled frame", its, probe)
		case u.ProbeFrames != nil:
			line += fmt.Sprintf("; %s %s counted %s%s", its, probe, Plural(*u.ProbeFrames, "compiled frame"), each)
		case slices.Contains(u.KnownFrom, KnownFromProbe):
			line += fmt.Sprintf(" (known from %s %s)", its, probe)
		case len(u.KnownFrom) > 0:
			var from []string
			for _, k := range u.KnownFrom {
				from = append(from, map[string]string{KnownFromWorldSize: "a probe's WORLD_SIZE", KnownFromLauncher: "the launcher"}[k])
			}
			line += " (known from " + strings.Join(from, " and ") + ")"
		}
		out = append(out, rankLine{ranks: len(g.ranks), text: line})
	}
	return out
}

// rankLine is one line of the "Per rank" section and the ranks it stands for.
type rankLine struct {
	ranks int
	text  string
}

// UnknownRankLines words an analysis's ranks without records (its report's per_rank_unknown), as the text
// report's "Per rank" does: the TUI's legend under its per-rank table.
func (a *Analysis) UnknownRankLines() []string {
	var out []string
	for _, l := range unknownRankGroups(a.Report.PerRankUnknown) {
		out = append(out, l.text)
	}
	return out
}

func sameRankWithoutRecords(a, b RankWithoutRecords) bool {
	return a.Rank == b.Rank && slices.Equal(a.KnownFrom, b.KnownFrom) && (a.ProbeFrames == nil) == (b.ProbeFrames == nil) &&
		(a.ProbeFrames == nil || *a.ProbeFrames == *b.ProbeFrames)
}

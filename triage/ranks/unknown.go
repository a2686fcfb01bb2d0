package ranks

import (
	"slices"
	"strconv"

	"github.com/torchtriage/torchtriage/triage/report"
)

// What shows a rank that no log record names (RankWithoutRecords.KnownFrom).
const (
	KnownFromProbe     = "probe"      // the rank's own probe file
	KnownFromWorldSize = "world_size" // another process's WORLD_SIZE, as its probe recorded it
	KnownFromLauncher  = "launcher"   // the launcher's process count (torchrun --nproc-per-node, WORLD_SIZE)
)

// UnknownRank is the entry of rank in a per_rank_unknown list (the ranks no log record names), ok false when the
// log names the rank (or the list does not hold it).
func UnknownRank(list []report.RankWithoutRecords, rank int) (report.RankWithoutRecords, bool) {
	i := slices.IndexFunc(list, func(u report.RankWithoutRecords) bool { return u.Rank == rank })
	if i < 0 {
		return report.RankWithoutRecords{}, false
	}
	return list[i], true
}

// ranksWithoutRecords lists the ranks of ranks (the analysis's, worldRanks) that the report has no counts of,
// with what shows each, by the same rules as worldRanks.
func RanksWithoutRecords(rep *report.Report, ranks []int, run *report.RunFacts, probes []report.ProcessInfo, torchRan bool) []report.RankWithoutRecords {
	out := []report.RankWithoutRecords{}
	for _, r := range ranks {
		if _, ok := rep.PerRank[strconv.Itoa(r)]; ok || r < 0 {
			continue
		}
		u := report.RankWithoutRecords{Rank: r, KnownFrom: []string{}}
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
		if pc := probeCounted(r, probes); pc.read { // what rank agreement compares it on, and words
			u.ProbeFrames = &pc.frames
			u.Probe = &report.ProbeCounts{None: pc.known(), NotKnown: pc.unknown, Counted: pc.whys}
		}
		out = append(out, u)
	}
	return out
}

func SameRankWithoutRecords(a, b report.RankWithoutRecords) bool {
	return a.Rank == b.Rank && slices.Equal(a.KnownFrom, b.KnownFrom) && (a.ProbeFrames == nil) == (b.ProbeFrames == nil) &&
		(a.ProbeFrames == nil || *a.ProbeFrames == *b.ProbeFrames) && a.Probe.Equal(b.Probe)
}

package triage

import (
	"slices"
	"strconv"
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
// counted compiled (Dynamo's counters), nil where no probe of it recorded them; Probe what they counted of each
// quantity rank agreement compares (nil where no probe of it recorded them): what rank agreement compares it on,
// and what its "Per rank" line shows as its probe's.
type RankWithoutRecords struct {
	Rank        int          `json:"rank"`
	KnownFrom   []string     `json:"known_from"`
	ProbeFrames *int         `json:"probe_frames_compiled,omitempty"`
	Probe       *ProbeCounts `json:"probe_counts,omitempty"`
}

// ProbeCounts is what the probes of a rank no log record names counted (probeCounted: Dynamo's counters) of the
// quantities rank agreement compares (QuantityGraphBreaks, …): None those they counted none of (0, as its probe
// counted: rank agreement compares it on them), NotKnown the others, Counted what they counted that leaves each
// of NotKnown unknown ("3 frame compiles, which may be recompiles").
type ProbeCounts struct {
	None     []string `json:"none"`
	NotKnown []string `json:"not_known,omitempty"`
	Counted  []string `json:"counted,omitempty"`
}

// UnknownRank is the entry of rank in a per_rank_unknown list (the ranks no log record names), ok false when the
// log names the rank (or the list does not hold it).
func UnknownRank(list []RankWithoutRecords, rank int) (RankWithoutRecords, bool) {
	i := slices.IndexFunc(list, func(u RankWithoutRecords) bool { return u.Rank == rank })
	if i < 0 {
		return RankWithoutRecords{}, false
	}
	return list[i], true
}

// ProbeNone reports whether u's probe counted none of quantity q (QuantityGraphBreaks, …; "" for a count no probe
// counts, runtime errors): a 0 shown as its probe's.
func (u RankWithoutRecords) ProbeNone(q string) bool {
	return u.Probe != nil && q != "" && slices.Contains(u.Probe.None, q)
}

func (p *ProbeCounts) equal(q *ProbeCounts) bool {
	return p == nil && q == nil || p != nil && q != nil && slices.Equal(p.None, q.None) && slices.Equal(p.NotKnown, q.NotKnown) &&
		slices.Equal(p.Counted, q.Counted)
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
		if pc := probeCounted(r, probes); pc.read { // what rank agreement compares it on, and words
			u.ProbeFrames = &pc.frames
			u.Probe = &ProbeCounts{None: pc.known(), NotKnown: pc.unknown, Counted: pc.whys}
		}
		out = append(out, u)
	}
	return out
}

func sameRankWithoutRecords(a, b RankWithoutRecords) bool {
	return a.Rank == b.Rank && slices.Equal(a.KnownFrom, b.KnownFrom) && (a.ProbeFrames == nil) == (b.ProbeFrames == nil) &&
		(a.ProbeFrames == nil || *a.ProbeFrames == *b.ProbeFrames) && a.Probe.equal(b.Probe)
}

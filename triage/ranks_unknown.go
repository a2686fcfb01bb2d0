package triage

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
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

// probeShows says which counts of rank agreement the probes of a rank that no log record names leave unknown
// ("" when they show them all: they read Dynamo's counters, which count no graph break, one frame compile at most,
// none failed, no CUDA-graph skip), and what they counted that leaves them so ("3 frame compiles, which may be
// recompiles"; read false: no probe of the rank read the counters). The counters do not say where a break or
// recompile was, nor tell a recompile from another frame's first compile: any of them leaves that count unknown.
// frames is the frames they counted compiled.
func probeShows(rank int, probes []ProcessInfo) (what, counted string, read bool, frames int) {
	var breaks, total, ok, unsupported, skips int
	for _, p := range probes {
		if p.RankOf() != rank || p.Counters == nil {
			continue
		}
		read = true
		for reason, n := range p.Counters["graph_break"] {
			if reason != "total" && n > 0 {
				breaks++
			}
		}
		for _, n := range p.Counters["unimplemented"] {
			if n > 0 {
				unsupported++
			}
		}
		total += int(max(p.Counters["frames"]["total"], p.Counters["frames"]["ok"]))
		ok += int(p.Counters["frames"]["ok"])
		skips += int(p.Counters["inductor"]["cudagraph_skips"])
	}
	if !read {
		return "graph breaks and recompiles", "", false, 0
	}
	var whats, whys []string
	if breaks > 0 {
		whats, whys = append(whats, "graph breaks"), append(whys, Plural(breaks, "graph break"))
	}
	if total > 1 {
		whats, whys = append(whats, "recompiles"), append(whys, Plural(total, "frame compile")+", which may be recompiles")
	}
	if total > ok || unsupported > 0 {
		whats = append(whats, "compile errors")
		if total > ok {
			whys = append(whys, Plural(total-ok, "frame")+" that did not compile")
		} else {
			whys = append(whys, fmt.Sprintf("%d Unsupported it did not trace", unsupported))
		}
	}
	if skips > 0 {
		whats, whys = append(whats, "CUDA-graph skips"), append(whys, Plural(skips, "CUDA-graph skip"))
	}
	return playbooks.JoinAnd(whats), playbooks.JoinAnd(whys), true, ok
}

// notKnownWords words ranks alike whose probes leave counts unknown (probeShows): "rank 0's recompiles are not
// known (no log record names it; its probe counted 3 frame compiles, which may be recompiles)", "the graph breaks
// and recompiles of ranks 0,1 are not known (no log record names them, and no probe of them recorded Dynamo's
// counters)"; its is the form after "rank 0 not compared: " ("its recompiles are not known (…)").
func notKnownWords(ranks []int, what, counted string, read bool) (words, its string) {
	one := len(ranks) == 1
	why := ", and no probe of it recorded Dynamo's counters"
	switch {
	case !one && !read:
		why = ", and no probe of them recorded Dynamo's counters"
	case one && read:
		why = "; its probe counted " + counted
	case read:
		why = "; their probes counted " + counted + " each"
	}
	if one {
		rest := fmt.Sprintf("%s are not known (no log record names it%s)", what, why)
		return rankWord(ranks) + "'s " + rest, "its " + rest
	}
	rest := fmt.Sprintf("are not known (no log record names them%s)", why)
	return fmt.Sprintf("the %s of %s %s", what, rankWord(ranks), rest), "their " + what + " " + rest
}

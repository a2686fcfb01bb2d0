package triage

import (
	"fmt"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
)

// withoutUnknownRanks keeps an agreement's claim (agree, or differ) about ranks no log record names only where
// their probes show what they did not log: no graph break, one frame compiled at most (no recompile), none failed,
// no CUDA-graph skip (probeShows). Those ranks are compared as having none, and the summary names that basis
// (FromProbe); the others are not compared, by name, and the rest are compared without them: a difference among
// those stands, their agreement is no agreement of all (NotCompared names the ranks left out). A comparison that
// was not made anyway (not compared) is left as it is: it claims nothing of them.
func withoutUnknownRanks(ra RankAgreement, ev ReportEvidence, fs []Finding, short string, unknown []RankWithoutRecords, probes []ProcessInfo) RankAgreement {
	if ra.NotCompared != "" {
		return ra
	}
	var shown []RankWithoutRecords
	var unshown []int
	type unknownGroup struct {
		ranks         []int
		what, counted string
		read          bool
	}
	var groups []unknownGroup // ranks not shown, alike in what is not known and why
	for _, u := range unknown {
		if !slices.Contains(ev.Ranks, u.Rank) {
			continue
		}
		what, counted, read, frames := probeShows(u.Rank, probes)
		if what == "" {
			u.ProbeFrames = &frames // what the basis words: the counters probeShows read
			shown = append(shown, u)
			continue
		}
		unshown = append(unshown, u.Rank)
		i := slices.IndexFunc(groups, func(g unknownGroup) bool { return g.what == what && g.counted == counted && g.read == read })
		if i < 0 {
			i, groups = len(groups), append(groups, unknownGroup{what: what, counted: counted, read: read})
		}
		groups[i].ranks = append(groups[i].ranks, u.Rank)
	}
	if len(unshown) > 0 {
		var nc, its []string
		for _, g := range groups {
			words, it := notKnownWords(g.ranks, g.what, g.counted, g.read)
			nc, its = append(nc, words), append(its, rankWord(g.ranks)+" not compared: "+it)
		}
		ranks := slices.DeleteFunc(slices.Clone(ev.Ranks), func(r int) bool { return slices.Contains(unshown, r) })
		if len(ranks) < 2 {
			return RankAgreement{Groups: []RankGroup{}, NotCompared: strings.Join(nc, "; "),
				Summary: fmt.Sprintf("not compared: %s, so the %d ranks (%s) could not be compared", strings.Join(nc, "; "),
					len(ev.Ranks), compactRanks(ev.Ranks))}
		}
		e := ev
		e.Ranks = ranks
		if ra = RankAgree(ranks, fs).earned(e, short); ra.NotCompared != "" {
			return ra
		}
		ra.Summary += "; " + strings.Join(its, "; ")
		if ra.Agree { // the others agree: not every rank does, as far as the input shows (a difference stands)
			ra.Agree, ra.NotCompared = false, strings.Join(nc, "; ")
		}
	}
	if len(shown) > 0 {
		ra.FromProbe = shown
		ra.Summary += "; " + ra.ProbeBasis()
	}
	return ra
}

// ProbeBasis words the ranks compared by their probes' counters (FromProbe), for the summary and the gate, one
// part per group of ranks alike: "rank 0 as its probe counted (no log record names it): 1 compiled frame, no graph
// break"; "" when none was.
func (ra RankAgreement) ProbeBasis() string {
	var order []int // the frames counts, in order of first appearance
	byFrames := map[int][]int{}
	for _, u := range ra.FromProbe {
		f := probeFrames(u)
		if _, ok := byFrames[f]; !ok {
			order = append(order, f)
		}
		byFrames[f] = append(byFrames[f], u.Rank)
	}
	var parts []string
	for i, frames := range order {
		if i == summaryGroups {
			parts = append(parts, fmt.Sprintf("… %d more groups of ranks as their probes counted", len(order)-summaryGroups))
			break
		}
		ranks := byFrames[frames]
		counted := "no compiled frame"
		if frames > 0 {
			counted = Plural(frames, "compiled frame") + ", no graph break"
		}
		if len(ranks) == 1 {
			parts = append(parts, rankWord(ranks)+" as its probe counted (no log record names it): "+counted)
		} else {
			parts = append(parts, rankWord(ranks)+" as their probes counted (no log record names them): "+counted+" each")
		}
	}
	return strings.Join(parts, "; ")
}

func probeFrames(u RankWithoutRecords) int {
	if u.ProbeFrames == nil {
		return -1
	}
	return *u.ProbeFrames
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

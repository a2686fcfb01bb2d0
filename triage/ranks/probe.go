package ranks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// withoutUnknownRanks keeps an agreement's claim (agree, or differ) about ranks no log record names only on what
// their probes counted (per_rank_unknown's Probe, by probeCounted: the 0s of their "Per rank" lines), quantity by
// quantity: graph breaks, recompiles, compile errors, CUDA-graph skips. A rank whose probe counted them all (no
// graph break, one frame compiled at most, none failed, no CUDA-graph skip) is compared as having none, with the
// others. A rank whose probe counted some is compared with
// the reference on those alone, as having none of them (its group lists what the reference has that it lacks);
// the quantities its probe did not count are named as not compared. A rank whose probe counted none is not
// compared, by name. FromProbe holds the ranks compared, and the summary names that basis (ProbeBasis). A
// difference stands; where none was found, an agreement that leaves out a quantity of a rank is no agreement of
// all (NotCompared names what was left out). Where two or more ranks with records look alike but their agreement is
// not earned, a rank compared by its probe that lacks what they logged differs from them all the same, and the rest
// is named as not compared (earnedFromProbe); else a comparison that was not made anyway (not compared) is left as
// it is: it claims nothing of them.
func withoutUnknownRanks(ra RankAgreement, ev report.ReportEvidence, fs []findings.Finding, short string, unknown []report.RankWithoutRecords) RankAgreement {
	if d, ok := earnedFromProbe(ra, ev, fs, short, unknown); ok { // the ranks with records not compared, a difference stands
		return d
	}
	if ra.NotCompared != "" {
		return ra
	}
	full, partial, groups := probeClasses(ev, unknown)
	var out []int // compared on none, or on some: not among the ranks compared on all
	for _, c := range partial {
		out = append(out, c.Rank)
	}
	for _, g := range groups {
		out = append(out, g.ranks...)
	}
	if len(out) == 0 {
		if len(full) > 0 {
			ra.FromProbe = full
			ra.Summary += "; " + ra.ProbeBasis()
		}
		return ra
	}
	var nc, its []string // what is not known of the ranks left out, and the summary's words of them
	for _, g := range groups {
		words, it := notKnownWords(g.ranks, g.what, g.counted, g.read)
		nc, its = append(nc, words), append(its, report.RankWord(g.ranks)+" not compared: "+it)
	}
	ranks := slices.DeleteFunc(slices.Clone(ev.Ranks), func(r int) bool { return slices.Contains(out, r) })
	if len(ranks) == 0 { // every rank is one no log record names, and some not compared on all: no reference
		for _, g := range partialGroups(partial) {
			nc = append(nc, g.notKnown())
		}
		ra := RankAgreement{Groups: []RankGroup{}, NotCompared: strings.Join(nc, "; ")}
		ra.Summary = notComparedSummary(ra.NotCompared, ev.Ranks, "")
		return ra
	}
	if len(partial) == 0 && len(ranks) < 2 {
		return RankAgreement{Groups: []RankGroup{}, NotCompared: strings.Join(nc, "; "),
			Summary: notComparedSummary(strings.Join(nc, "; "), ev.Ranks, "")}
	}
	e := ev
	e.Ranks = ranks
	if len(ranks) > 1 {
		if ra = agreeOf(ranks, e, fs, short, unknown); ra.NotCompared != "" {
			return ra
		}
	} else { // one rank compared on all: the reference of the ranks compared on some
		ra = RankAgreement{Agree: true, Groups: []RankGroup{{Ranks: ranks}}}
	}
	lead := ra.Summary // "all 2 ranks agree (0,1)", "ranks 0,1 agree; rank 2: …"; none of one rank
	ra.FromProbe = full
	// where no difference is found, agreement of the quantities compared must be earned as all agreement is
	unearned := RankAgreement{Agree: true, Groups: []RankGroup{{Ranks: ev.Ranks}}}.earned(ev, short)
	for _, g := range partialGroups(partial) {
		rg := compareGroup(g.ranks, ra.Groups[0].Ranks[0], agreementItems(fs, g.pc.ComparedOn), probeEarned(ev, short))
		switch {
		case len(rg.Extra)+len(rg.Missing) > 0:
			ra.Groups = append(ra.Groups, rg)
		case unearned.NotCompared != "":
			nc = append(nc, g.notKnown())
			its = append(its, report.RankWord(g.ranks)+" not compared: "+unearned.NotCompared)
			continue
		default:
			nc = append(nc, g.notKnown())
		}
		ra.FromProbe = append(ra.FromProbe, g.members...)
	}
	if len(ra.Groups) > 1 { // a difference: it stands
		ra.Agree, ra.NotCompared = false, ""
		lead = agreementSummary(ra)
	} else if unearned.NotCompared != "" && len(ranks) < 2 { // nothing compared to agree on stands
		return unearned
	} else {
		ra.Agree, ra.NotCompared = false, strings.Join(nc, "; ")
	}
	parts := append([]string{lead}, its...)
	if b := ra.ProbeBasis(); b != "" {
		parts = append(parts, b)
	}
	ra.Summary = strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), "; ")
	return ra
}

// probeGroup is ranks compared on some quantities whose probes counted alike: compared alike, worded alike.
type probeGroup struct {
	ranks   []int
	pc      ProbeCompared // the first one's
	members []ProbeCompared
}

// notKnown words what the group's probes leave unknown: "rank 0's recompiles are not known (no log record names
// it; its probe counted 3 frame compiles, which may be recompiles)".
func (g probeGroup) notKnown() string {
	words, _ := notKnownWords(g.ranks, playbooks.JoinAnd(g.pc.NotCompared), playbooks.JoinAnd(g.pc.ProbeCounted), true)
	return words
}

func partialGroups(pcs []ProbeCompared) []probeGroup {
	var out []probeGroup
	for _, c := range pcs {
		i := slices.IndexFunc(out, func(g probeGroup) bool { return g.pc.alike(c) })
		if i < 0 {
			i, out = len(out), append(out, probeGroup{pc: c})
		}
		out[i].ranks, out[i].members = append(out[i].ranks, c.Rank), append(out[i].members, c)
	}
	return out
}

// agreementItems are the findings rank agreement compares, by id, of the quantities named (nil: all of them).
func agreementItems(fs []findings.Finding, quantities []string) []*findings.Finding {
	var items []*findings.Finding
	for i := range fs {
		if _, ok := agreementKinds[fs[i].Kind]; ok && (quantities == nil || slices.Contains(quantities, quantityOf(fs[i].Kind))) {
			items = append(items, &fs[i])
		}
	}
	slices.SortFunc(items, func(a, b *findings.Finding) int { return strings.Compare(a.ID, b.ID) })
	return items
}

// notKnownWords words ranks alike whose probes leave counts unknown (probeCounted): "rank 0's recompiles are not
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
		return report.RankWord(ranks) + "'s " + rest, "its " + rest
	}
	rest := fmt.Sprintf("are not known (no log record names them%s)", why)
	return fmt.Sprintf("the %s of %s %s", what, report.RankWord(ranks), rest), "their " + what + " " + rest
}

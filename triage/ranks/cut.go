package ranks

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// countsExact says whether the counts of kind k stand as exact (what a rank does not show, it did not do) or are
// floors (≥N: it may have more). probe: the counts of a rank no log record names, as its probe's counters counted
// them (per_rank_unknown), else what the log shows. In a run that did not finish (short: stopped, crashed, still
// running) every count is a floor, the probe's too: what a rank had not reached yet is not known. Of a run that
// completed, a probe's counters are exact, and the log's counts of a kind are where that kind was logged and the
// log lacks nothing a probe counted (LogSilenced).
func countsExact(ev report.ReportEvidence, short string, k findings.Kind, probe bool) bool {
	switch {
	case short != "":
		return false
	case probe:
		return true
	case ev.LogSilenced != "":
		return false
	}
	switch k {
	case findings.KindGraphBreak:
		return ev.GraphBreaksLogged
	case findings.KindRecompile:
		return ev.RecompilesLogged
	case findings.KindCudagraphSkip:
		return ev.CudagraphSkipsLogged
	}
	return true // limit hits and compile errors print whatever TORCH_LOGS says
}

// earnedDiff is the one rule of what a difference of counts earns: a group's a of an item against the reference's b
// (each exact or a floor: countsExact). The side with fewer must be exact, else it may have reached the other's
// count later: a > b ("extra") only against an exact b, a < b ("missing") only of an exact a. Two floors earn nothing.
func earnedDiff(a, b int, aExact, bExact bool) bool {
	return a > b && bExact || a < b && aExact
}

// agreeOf is the rank agreement of ranks (ev's other facts kept): compared (RankAgree), an agreement kept only where
// earned (earned), a difference only where earned (earnedDiffs).
func agreeOf(ranks []int, ev report.ReportEvidence, fs []findings.Finding, short string, unknown []report.RankWithoutRecords) RankAgreement {
	e := ev
	e.Ranks = ranks
	return RankAgree(ranks, fs).earned(e, short).earnedDiffs(e, fs, short, unknown)
}

// earnedDiffs keeps of a difference between ranks only the items earnedDiff earns, where some counts are floors (the
// agreement of all would not be earned: earned). A group with no earned item is not compared; where none is left,
// nothing is said of any rank but "not compared" and why, as of ranks that look alike ("…, so the 3 ranks (0–2)
// could not be compared": a run that did not finish, whose counts are all floors). Where some are left, each is said
// with the ranks not compared and why (OthersNotCompared, floorsSummary): "ranks 0,1 agree" is not earned either.
// Of a run still running, or one that ended before it finished (stopped, died: a hang the tool stopped is often
// ranks that compiled differently), whose counts are all floors, nothing is earned, but the difference where the
// log ends is kept as such, of the ranks the log shows (SoFar, soFarGroups, soFarWords): "ranks differ so far: …;
// not compared: the run is still running, …", "ranks differ where the log ends: …; not compared: the run did not
// complete …", never "agree".
func (ra RankAgreement) earnedDiffs(ev report.ReportEvidence, fs []findings.Finding, short string, unknown []report.RankWithoutRecords) RankAgreement {
	if !ra.Disagree() || len(ra.Groups) < 2 {
		return ra
	}
	whole := RankAgreement{Agree: true, Groups: []RankGroup{{Ranks: ev.Ranks}}}.earned(ev, short)
	if whole.NotCompared == "" { // every count compared is exact: the difference stands as it is
		return ra
	}
	logged := func(f *findings.Finding, a, b int) bool {
		x := countsExact(ev, short, f.Kind, false)
		return earnedDiff(a, b, x, x)
	}
	items := agreementItems(fs, nil)
	ref := ra.Groups[0]
	out := RankAgreement{Groups: []RankGroup{ref}, FromProbe: ra.FromProbe}
	others := slices.Clone(ref.Ranks)
	for _, g := range ra.Groups[1:] {
		rg := compareGroup(g.Ranks, ref.Ranks[0], items, logged)
		if len(rg.Extra)+len(rg.Missing) == 0 {
			others = append(others, g.Ranks...)
			continue
		}
		out.Groups = append(out.Groups, rg)
	}
	if len(out.Groups) < 2 { // nothing earned: no group is said to be alike either
		whole.Groups = []RankGroup{}
		if groups := SoFarGroups(ra.Groups, unknown); short != "" && groups != nil { // a run that did not finish (or
			// not yet): what differs where its log ends, not earned, of the ranks the log shows
			whole.SoFar = groups
			whole.Summary = SoFarWords(groups, whole.Live) + "; " + whole.Summary
		}
		return whole
	}
	sort.Ints(others)
	out.OthersNotCompared = []RanksNotCompared{{Ranks: others, Why: whole.NotCompared}}
	out.Summary = out.floorsSummary()
	return out
}

// probeEarned is earnedDiff of a group compared by its probes' counters against ranks with records.
func probeEarned(ev report.ReportEvidence, short string) func(f *findings.Finding, a, b int) bool {
	return func(f *findings.Finding, a, b int) bool {
		return earnedDiff(a, b, countsExact(ev, short, f.Kind, true), countsExact(ev, short, f.Kind, false))
	}
}

// breakWords words a graph break of rank agreement: "graph break print() at train.py:10"; twin (breakTwins): with
// what tells it from another break that reads the same: where torch broke the graph, where that is not the user's
// line ("… via contextlib.py:109"), else its gb_type ("… (Unsupported method call)").
func breakWords(f *findings.Finding, twin bool) string {
	w := "graph break " + f.What + " at " + findings.SiteText(f.File, f.Line)
	if !twin {
		return w
	}
	if i := strings.LastIndexByte(f.BreakSite, ':'); i > 0 && f.BreakSite != f.File+":"+strconv.Itoa(f.Line) {
		if line, err := strconv.Atoi(f.BreakSite[i+1:]); err == nil {
			return w + " via " + findings.SiteText(f.BreakSite[:i], line)
		}
	}
	if f.GBType != "" && f.GBType != f.What {
		return w + " (" + f.GBType + ")"
	}
	return w
}

// breakTwins are the graph breaks of items whose words (breakWords) are another's: two findings at one site.
func breakTwins(items []*findings.Finding) map[*findings.Finding]bool {
	by := map[string][]*findings.Finding{}
	for _, f := range items {
		if f.Kind == findings.KindGraphBreak {
			w := breakWords(f, false)
			by[w] = append(by[w], f)
		}
	}
	twins := map[*findings.Finding]bool{}
	for _, fs := range by {
		for _, f := range fs {
			twins[f] = len(fs) > 1
		}
	}
	return twins
}

package ranks

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// RanksNotCompared is ranks rank agreement did not compare, and why: "the run did not complete (…)", "its graph
// breaks and recompiles are not known (…)". Its JSON writes the ranks as a rank group's are, as ranges ("0-2").
type RanksNotCompared struct {
	Ranks []int
	Why   string
}

type ranksNotComparedJSON struct {
	Ranks string `json:"ranks"`
	Size  int    `json:"size"`
	Why   string `json:"why"`
}

// MarshalJSON writes the ranks as ranges ("0,2-7"), as RankGroup does.
func (o RanksNotCompared) MarshalJSON() ([]byte, error) {
	return json.Marshal(ranksNotComparedJSON{text.ASCIIRanges(o.Ranks), len(o.Ranks), o.Why})
}

// UnmarshalJSON reads the compact form back (saved reports).
func (o *RanksNotCompared) UnmarshalJSON(data []byte) error {
	var raw ranksNotComparedJSON
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	o.Ranks, o.Why = text.ParseRanges(raw.Ranks), raw.Why
	return nil
}

// unknownGroup is ranks no log record names that were compared on nothing, alike in what is not known and why.
type unknownGroup struct {
	ranks         []int
	what, counted string
	read          bool
}

// probeClasses sorts the ranks of ev that no log record names (unknown) by what their probes counted
// (probeCounted, the "Per rank" line's 0s): compared on every quantity (full), on some (partial), on none (groups).
func probeClasses(ev report.ReportEvidence, unknown []report.RankWithoutRecords) (full, partial []ProbeCompared, groups []unknownGroup) {
	for _, u := range unknown {
		if !slices.Contains(ev.Ranks, u.Rank) {
			continue
		}
		if pc := u.Probe; pc != nil && len(pc.None) > 0 {
			c := ProbeCompared{RankWithoutRecords: u, ComparedOn: slices.Clone(pc.None), NotCompared: slices.Clone(pc.NotKnown),
				ProbeCounted: slices.Clone(pc.Counted)}
			c.Probe = nil // its own fields say it
			if len(pc.NotKnown) == 0 {
				full = append(full, c)
			} else {
				partial = append(partial, c)
			}
			continue
		}
		what, counted, read := "graph breaks and recompiles", "", u.Probe != nil
		if read {
			what, counted = playbooks.JoinAnd(u.Probe.NotKnown), playbooks.JoinAnd(u.Probe.Counted)
		}
		i := slices.IndexFunc(groups, func(g unknownGroup) bool { return g.what == what && g.counted == counted && g.read == read })
		if i < 0 {
			i, groups = len(groups), append(groups, unknownGroup{what: what, counted: counted, read: read})
		}
		groups[i].ranks = append(groups[i].ranks, u.Rank)
	}
	return full, partial, groups
}

// earnedFromProbe is the one rank agreement of ranks no log record names, compared by their probes, with the ranks
// that have records (one or more), where those look alike but their agreement is not earned (ra not compared, or the
// agreement of them alone: the run did not complete, their graph breaks or recompiles were not logged, the log
// lacks what a probe counted): their counts are floors. A floor of 1 or more against a probe's exact none (what
// it counted none of: ProbeCounts.None) is an earned difference, and stands; a floor of 0 against none is not (the
// ranks with records may have had one the log does not show, or not yet reached it). It says both parts: "rank 3
// differs from ranks 0,1: missing graph break …; rank 3 as its probe counted (…): no graph break; ranks 0–2 not
// compared: the run did not complete (…)" (OthersNotCompared: the ranks with records, and those no record names
// that showed no earned difference; those whose probe counted nothing, with their own why). ok is false where no
// such difference is found: ra stands as it is.
func earnedFromProbe(ra RankAgreement, ev report.ReportEvidence, fs []findings.Finding, short string, unknown []report.RankWithoutRecords) (RankAgreement, bool) {
	var logged []int // the ranks with records
	for _, r := range ev.Ranks {
		if _, ok := UnknownRank(unknown, r); !ok {
			logged = append(logged, r)
		}
	}
	if len(logged) == 0 || len(logged) == len(ev.Ranks) {
		return ra, false
	}
	all := agreementItems(fs, nil)
	for _, f := range all { // the ranks with records look alike (a difference among them is said as it is)
		for _, r := range logged[1:] {
			if countOn(f, r) != countOn(f, logged[0]) {
				return ra, false
			}
		}
	}
	why := ra.NotCompared
	if why == "" {
		why = RankAgreement{Agree: true, Groups: []RankGroup{{Ranks: logged}}}.earned(ev, short).NotCompared
	}
	if why == "" { // their agreement is earned: compared as usual (withoutUnknownRanks)
		return ra, false
	}
	full, partial, uncounted := probeClasses(ev, unknown)
	out := RankAgreement{Groups: []RankGroup{{Ranks: logged}}}
	var others []int // the ranks with records, whose agreement is what was not earned: none to earn of one rank
	if len(logged) > 1 {
		others = slices.Clone(logged)
	}
	for _, g := range partialGroups(append(full, partial...)) {
		rg := compareGroup(g.ranks, logged[0], agreementItems(fs, g.pc.ComparedOn), probeEarned(ev, short))
		if len(rg.Missing) == 0 || len(rg.Extra) > 0 { // none they had and it lacks; more than a floor is no evidence
			others = append(others, g.ranks...)
			continue
		}
		out.Groups = append(out.Groups, rg)
		out.FromProbe = append(out.FromProbe, g.members...)
	}
	if len(out.Groups) < 2 {
		return ra, false
	}
	if len(others) > 0 {
		sort.Ints(others)
		out.OthersNotCompared = append(out.OthersNotCompared, RanksNotCompared{Ranks: others, Why: why})
	}
	for _, g := range uncounted {
		_, its := notKnownWords(g.ranks, g.what, g.counted, g.read)
		out.OthersNotCompared = append(out.OthersNotCompared, RanksNotCompared{Ranks: g.ranks, Why: its})
	}
	out.Summary = out.floorsSummary()
	return out, true
}

// floorsSummary words an agreement of earnedFromProbe: what each group differs in from the ranks with records,
// whose probes' counts it rests on (ProbeBasis), then the ranks not compared and why.
func (ra RankAgreement) floorsSummary() string {
	var parts []string
	for i, g := range ra.Groups[1:] {
		if i == report.SummaryGroups {
			parts = append(parts, fmt.Sprintf("… %d more groups of ranks differ", len(ra.Groups)-1-report.SummaryGroups))
			break
		}
		verb := "differs"
		if len(g.Ranks) > 1 {
			verb = "differ"
		}
		parts = append(parts, fmt.Sprintf("%s %s from %s: %s", report.RankWord(g.Ranks), verb, report.RankWord(ra.Groups[0].Ranks), groupItems(g)))
	}
	if b := ra.ProbeBasis(); b != "" {
		parts = append(parts, b)
	}
	parts = append(parts, ra.OthersWords()...)
	return strings.Join(parts, "; ")
}

// othersWords words OthersNotCompared, one part each: "ranks 0–2 not compared: the run did not complete (…)".
func (ra RankAgreement) OthersWords() []string {
	var out []string
	for _, o := range ra.OthersNotCompared {
		out = append(out, report.RankWord(o.Ranks)+" not compared: "+o.Why)
	}
	return out
}

// groupItems words what a group has extra and missing, bounded: "extra graph break …, missing …, +2 more".
func groupItems(g RankGroup) string {
	var parts []string
	for _, e := range g.Extra {
		parts = append(parts, "extra "+e)
	}
	for _, m := range g.Missing {
		parts = append(parts, "missing "+m)
	}
	if len(parts) > report.SummaryItems {
		parts = append(parts[:report.SummaryItems], fmt.Sprintf("+%d more", len(parts)-report.SummaryItems))
	}
	return strings.Join(parts, ", ")
}

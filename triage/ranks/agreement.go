package ranks

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/report"
)

// RankAgreement says whether every rank broke and recompiled the same way. Ranks with identical per-rank sets
// of breaks, recompiles (with their counts), limit hits, skips and errors form one group; the largest group is
// the reference (on a tie, the one with fewer events), every other group lists what it has extra or missing
// against it. Its size grows with the number of distinct behaviours, not with the number of ranks.
type RankAgreement struct {
	Agree   bool        `json:"agree"`
	Groups  []RankGroup `json:"groups"` // Groups[0] is the reference
	Summary string      `json:"summary"`
	// NotCompared says why ranks that showed no difference were not compared (their graph breaks or recompiles
	// were not logged, or there is one process or one rank); Agree is false then, and so is Disagree.
	NotCompared string `json:"not_compared,omitempty"`
	// Cut: not compared because the run did not complete (a rank died, the tool stopped it); Live: because it
	// still runs (SoFar says what differs so far, if anything). For displays that word it short.
	Cut, Live bool `json:"-"`
	// SettingsDiffer names the settings the ranks' probes recorded differently (config parity: "dynamo.…"), also
	// where what they logged agrees: the ranks step and --ranks-agree need both.
	SettingsDiffer []string `json:"settings_differ,omitempty"`
	// FromProbe are the compared ranks that no log record names (the report's per_rank_unknown): each was compared
	// on the quantities its probe's counters counted (ComparedOn: graph breaks, recompiles, compile errors,
	// CUDA-graph skips), as having none of them; the others are not compared (NotCompared). ProbeBasis words them;
	// Summary names them. A rank no record names whose probe counted none of them is not compared.
	FromProbe []ProbeCompared `json:"from_probe,omitempty"`
	// OthersNotCompared: ranks that differ from the ranks with records (Groups[0]) on what their probes counted,
	// where those ranks' own agreement is not earned: the ranks not compared, and why (earnedFromProbe).
	OthersNotCompared []RanksNotCompared `json:"others_not_compared,omitempty"`
	// SoFar: of a run still running, how its ranks differ so far (SoFar[0] the reference), none of it earned yet
	// (earnedDiff: a rank with fewer may still reach the other's count): no disagreement, said as such (soFarWords).
	SoFar []RankGroup `json:"differ_so_far,omitempty"`
	// Compiles: where the ranks' probes recorded different compiles (numbers finished, or the last one), what each
	// had done when the run ended, or so far (withCompiles): no difference earned, no agreement.
	Compiles *CompilesDiffer `json:"compiles_differ,omitempty"`
}

// Disagree reports ranks found to differ (not ranks that could not be compared).
func (ra RankAgreement) Disagree() bool { return !ra.Agree && ra.NotCompared == "" }

// RankGroup is a set of ranks that behaved identically. Extra and Missing are against the reference group;
// FirstDivergent is, per rank of a non-reference group, the compile id where it first differs.
type RankGroup struct {
	Ranks          []int
	Extra, Missing []string
	FirstDivergent map[int]string
	Kinds          []findings.Kind // the kinds of the differing items, in order of first appearance
}

// agreementKinds take part in rank agreement; breaks and skips by presence, the others by count.
var agreementKinds = map[findings.Kind]bool{findings.KindGraphBreak: false, findings.KindCudagraphSkip: false,
	findings.KindRecompile: true, findings.KindLimitHit: true, findings.KindCompileError: true}

func countOn(f *findings.Finding, rank int) int {
	st, ok := f.RankStats[rank]
	if !ok || st.N == 0 {
		return 0
	}
	if agreementKinds[f.Kind] {
		return st.N
	}
	return 1
}

// RankAgree compares the findings of ranks (the ranks seen in the input). One rank or none is not compared: it
// agrees with nothing (NotCompared says which), and differs from nothing.
func RankAgree(ranks []int, findings []findings.Finding) RankAgreement {
	if len(ranks) <= 1 {
		s := "single process"
		if len(ranks) == 1 {
			s = "only rank " + strconv.Itoa(ranks[0]) + " seen"
		}
		ra := RankAgreement{Summary: s, NotCompared: "no rank prefix in the input", Groups: []RankGroup{}}
		if len(ranks) == 1 {
			ra.NotCompared, ra.Groups = s, []RankGroup{{Ranks: ranks}}
		}
		return ra
	}
	items := agreementItems(findings, nil)
	// signature per rank: a sum of per-item hashes (order-free), 64 bits. Kept in slices by the rank's place (at):
	// one map lookup an item's rank, not four (thousands of items by their ranks); records of no rank summed on the way
	at := make(map[int]int, len(ranks))
	for _, r := range ranks {
		if _, ok := at[r]; !ok {
			at[r] = len(at)
		}
	}
	sig, total := make([]uint64, len(at)), make([]int, len(at))
	unranked := 0 // records that say no rank (a line without [rankN]:, under torchrun's [defaultN]: tee prefix only)
	for i, f := range items {
		byCount := agreementKinds[f.Kind]
		for r, st := range f.RankStats {
			if r == -1 {
				unranked += st.N
			}
			k, ok := at[r]
			if !ok || st.N == 0 {
				continue
			}
			n := 1 // countOn's
			if byCount {
				n = st.N
			}
			sig[k] += mix64(uint64(i)+1, uint64(n))
			total[k] += n
		}
	}
	byKey := map[uint64][]int{}
	for _, r := range ranks {
		byKey[sig[at[r]]] = append(byKey[sig[at[r]]], r)
	}
	groups := make([][]int, 0, len(byKey))
	for _, g := range byKey {
		sort.Ints(g)
		groups = append(groups, g)
	}
	sort.Slice(groups, func(i, j int) bool {
		a, b := groups[i], groups[j]
		if len(a) != len(b) {
			return len(a) > len(b)
		}
		if ta, tb := total[at[a[0]]], total[at[b[0]]]; ta != tb {
			return ta < tb
		}
		return a[0] < b[0]
	})
	ra := RankAgreement{Agree: len(groups) == 1}
	// records of no rank may be any rank's: ranks that look alike without them are not shown to agree (a
	// difference among the others stands)
	if ra.Agree && unranked > 0 {
		ra.Agree, ra.NotCompared = false, report.Plural(unranked, "record")+" of no rank"
		ra.Groups = []RankGroup{{Ranks: groups[0]}}
		verb := " carry"
		if unranked == 1 {
			verb = " carries"
		}
		ra.Summary = notComparedSummary(report.Plural(unranked, "record")+verb+" no rank prefix (which rank printed it is not known)", ranks, "")
		return ra
	}
	ref := groups[0][0]
	ra.Groups = append(ra.Groups, RankGroup{Ranks: groups[0]})
	for _, g := range groups[1:] {
		ra.Groups = append(ra.Groups, compareGroup(g, ref, items, nil))
	}
	ra.Summary = agreementSummary(ra)
	return ra
}

func mix64(a, b uint64) uint64 {
	x := a*0x9E3779B97F4A7C15 ^ (b+0x632BE59BD9B4E019)*0xBF58476D1CE4E5B9
	x ^= x >> 31
	x *= 0x94D049BB133111EB
	return x ^ x>>29
}

// compareGroup lists what group g (represented by its first rank) has extra or missing against rank ref: of the
// items that differ, those earned says are a difference (nil: all; earnedDiff).
func compareGroup(g []int, ref int, items []*findings.Finding, earned func(f *findings.Finding, a, b int) bool) RankGroup {
	rg := RankGroup{Ranks: g, FirstDivergent: make(map[int]string, len(g))}
	rep := g[0]
	var differing []*findings.Finding
	twins := breakTwins(items)
	for _, f := range items {
		a, b := countOn(f, rep), countOn(f, ref)
		if a == b || earned != nil && !earned(f, a, b) {
			continue
		}
		differing = append(differing, f)
		if !slices.Contains(rg.Kinds, f.Kind) {
			rg.Kinds = append(rg.Kinds, f.Kind)
		}
		text := divergenceText(f, a, b, twins[f])
		if a > b && len(rg.Extra) < report.MaxGroupItems {
			rg.Extra = append(rg.Extra, text)
		} else if a < b && len(rg.Missing) < report.MaxGroupItems {
			rg.Missing = append(rg.Missing, text)
		}
	}
	for _, r := range g {
		var best logparse.CompileID
		found := false
		for _, f := range differing {
			if cid, ok := divergentAt(f, r, ref); ok && (!found || report.CidLess(cid, best)) {
				best, found = cid, true
			}
		}
		if found {
			rg.FirstDivergent[r] = best.String()
		}
	}
	return rg
}

// divergentAt is the compile id where rank r's records of f stop matching the reference's: the first record
// of an item only one side has, else the latest record of the side that has more (the extra one comes last).
func divergentAt(f *findings.Finding, r, ref int) (logparse.CompileID, bool) {
	a, b := f.RankStats[r], f.RankStats[ref]
	var cid logparse.CompileID
	switch {
	case a.N == 0:
		cid = b.First
	case b.N == 0:
		cid = a.First
	case a.N > b.N:
		cid = a.Last
	default:
		cid = b.Last
	}
	return cid, cid.Valid()
}

// divergenceText words one differing item: "recompile of step (after line 10): size mismatch y[0] 4→8". twin: another
// break compared reads the same ("graph break DDP wrapper at ddp_net.py:23"): where torch broke the graph tells them
// apart ("… via contextlib.py:109"), else its gb_type (breakWords).
func divergenceText(f *findings.Finding, a, b int, twin bool) string {
	var what string
	switch f.Kind {
	case findings.KindGraphBreak:
		what = breakWords(f, twin)
	case findings.KindRecompile:
		gc := guard.Class{Class: "other", Detail: f.What}
		if len(f.Classes) > 0 {
			gc = f.Classes[len(f.Classes)-1] // the latest variant: what the extra recompile most likely saw
		}
		what = "recompile of " + findings.FnDisplay(f.Function, f.Resume) + ", " + findings.DescribeClass(gc, 1)
	case findings.KindLimitHit:
		what = "recompile-limit hit in " + findings.FnDisplay(f.Function, f.Resume)
	case findings.KindCudagraphSkip:
		what = "CUDA-graph skip (" + f.What + ")"
	default:
		what = "error " + f.What
	}
	d := a - b
	if d < 0 {
		d = -d
	}
	if d == 1 || (b == 0 && a > 0 && !agreementKinds[f.Kind]) || (a == 0 && !agreementKinds[f.Kind]) {
		return what
	}
	return fmt.Sprintf("%d× %s", d, what)
}

func agreementSummary(ra RankAgreement) string {
	ref := ra.Groups[0]
	if ra.Agree {
		return fmt.Sprintf("all %d ranks agree (%s)", len(ref.Ranks), report.CompactRanks(ref.Ranks))
	}
	var b strings.Builder
	switch {
	case len(ref.Ranks) > 1:
		fmt.Fprintf(&b, "%s agree; ", report.RankWord(ref.Ranks))
	case len(ra.Groups) == 2:
		fmt.Fprintf(&b, "%s differs from %s: ", report.RankWord(ra.Groups[1].Ranks), report.RankWord(ref.Ranks))
	default:
		fmt.Fprintf(&b, "no two ranks agree (reference %s); ", report.RankWord(ref.Ranks))
	}
	for i, g := range ra.Groups[1:] {
		if i == report.SummaryGroups {
			fmt.Fprintf(&b, "; … %d more groups of ranks differ", len(ra.Groups)-1-report.SummaryGroups)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		if len(ref.Ranks) > 1 || len(ra.Groups) > 2 {
			fmt.Fprintf(&b, "%s: ", report.RankWord(g.Ranks))
		}
		b.WriteString(groupItems(g))
	}
	return b.String()
}

package ranks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// disagreementFinding turns a disagreement into a high-severity finding.
func DisagreementFinding(ra RankAgreement, items []findings.Finding, set *playbooks.Set) findings.Finding {
	f := findings.Finding{Kind: findings.KindRankDisagreement, Severity: "high", Category: findings.CategoryFix, What: "ranks differ",
		ID: string(findings.KindRankDisagreement), RankStats: map[int]report.RankStat{}}
	kinds := map[findings.Kind]bool{}
	var detail strings.Builder
	fmt.Fprintf(&detail, "Reference: %s", report.RankWord(ra.Groups[0].Ranks))
	for _, g := range ra.Groups[1:] {
		for _, r := range g.Ranks {
			f.RankStats[r] = report.StatN(1)
		}
		fmt.Fprintf(&detail, "\n%s:", report.RankWord(g.Ranks))
		for _, e := range g.Extra {
			fmt.Fprintf(&detail, "\n  extra %s", e)
		}
		for _, m := range g.Missing {
			fmt.Fprintf(&detail, "\n  missing %s", m)
		}
		for _, k := range g.Kinds {
			kinds[k] = true
		}
		if fd := GroupFirstDivergent(g); fd != "" {
			fmt.Fprintf(&detail, "\n  first divergent compile id: %s", fd)
		}
	}
	if basis := ra.ProbeBasis(); basis != "" {
		fmt.Fprintf(&detail, "\n%s", basis)
	}
	for _, o := range ra.OthersWords() { // the reference's own agreement is not earned (earnedFromProbe)
		fmt.Fprintf(&detail, "\n%s", o)
	}
	f.Ranks = findings.RanksOf(f.RankStats)
	f.Records = len(f.Ranks)
	var what []string
	for _, k := range []struct {
		kind findings.Kind
		word string
	}{{findings.KindGraphBreak, "graph breaks"}, {findings.KindRecompile, "recompiles"}, {findings.KindLimitHit, "recompile-limit hits"},
		{findings.KindCudagraphSkip, "CUDA-graph skips"}, {findings.KindCompileError, "errors"}} {
		if kinds[k.kind] {
			what = append(what, k.word)
		}
	}
	reason := strings.Join(what, " and ") + " differ between ranks: " + ra.Summary
	findings.ApplyPlaybook(&f, findings.MatchPlaybook(set, playbooks.Query{Kind: findings.KindRankDisagreement, Reason: reason}))
	f.Key = f.ID
	f.Do = disagreementDo(ra)
	f.Title = "Ranks compile differently: " + text.OneLine(ra.Summary, text.TitleMax)
	f.Detail = detail.String()
	div := map[int]bool{}
	for _, r := range f.Ranks {
		div[r] = true
	}
	for i := range items {
		for _, e := range items[i].Evidence {
			if div[e.Rank] && len(f.Evidence) < report.MaxEvidence && countOn(&items[i], e.Rank) != countOn(&items[i], ra.Groups[0].Ranks[0]) {
				f.Evidence = append(f.Evidence, e)
			}
		}
	}
	return f
}

// groupFirstDivergent renders FirstDivergent grouped by compile id: "0/0 on ranks 0–3; 1/1 on rank 4".
func GroupFirstDivergent(g RankGroup) string {
	by := map[string][]int{}
	for r, c := range g.FirstDivergent {
		by[c] = append(by[c], r)
	}
	keys := make([]string, 0, len(by))
	for c := range by {
		sort.Ints(by[c])
		keys = append(keys, c)
	}
	sort.Slice(keys, func(i, j int) bool { return by[keys[i]][0] < by[keys[j]][0] })
	parts := make([]string, len(keys))
	for i, c := range keys {
		parts[i] = c + " on " + report.RankWord(by[c])
	}
	return strings.Join(parts, "; ")
}

// disagreementDo names what to make the same, group by group against the reference: "Remove what only rank 0
// does (the others do not): graph break print() at r05_dist_c10d.py:10; recompile of step (after line 10)", and
// "rank 2 lacks what rank 0 does: …" for what a group misses.
func disagreementDo(ra RankAgreement) string {
	if len(ra.Groups) < 2 {
		return ""
	}
	ref := report.RankWord(ra.Groups[0].Ranks)
	var parts []string
	for _, g := range ra.Groups[1:] {
		who := report.RankWord(g.Ranks)
		if len(g.Extra) > 0 {
			parts = append(parts, fmt.Sprintf("remove what only %s does (%s does not): %s", who, ref, strings.Join(g.Extra, "; ")))
		}
		if len(g.Missing) > 0 {
			parts = append(parts, fmt.Sprintf("find why %s lacks what %s does: %s", who, ref, strings.Join(g.Missing, "; ")))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	out := strings.Join(parts, "; and ")
	return strings.ToUpper(out[:1]) + out[1:] + ": every rank must compile the same graphs."
}

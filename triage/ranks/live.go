package ranks

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
)

// soFarWords words how the ranks of a run that did not finish differ where its log ends (SoFar: groups as RankAgree
// makes them, groups[0] the reference), as what the ranks with more have that the others have not shown, since
// those may still reach it (live) or might have (ended): "ranks differ so far: rank 2 has what ranks 0,1 have not
// shown (yet): graph break print() at train.py:20", "ranks differ where the log ends: rank 2 has what ranks 0,1 had
// not shown when it ended: …". Bounded as agreementSummary is: three groups, three items each.
func SoFarWords(groups []RankGroup, live bool) string {
	ref := groups[0].Ranks
	var parts []string
	for i, g := range groups[1:] {
		if i == report.SummaryGroups {
			parts = append(parts, fmt.Sprintf("… %d more groups of ranks differ so far", len(groups)-1-report.SummaryGroups))
			break
		}
		if len(g.Extra) > 0 {
			parts = append(parts, hasNotShown(g.Ranks, ref, g.Extra, live))
		}
		if len(g.Missing) > 0 {
			parts = append(parts, hasNotShown(ref, g.Ranks, g.Missing, live))
		}
	}
	if !live {
		return "ranks differ where the log ends: " + strings.Join(parts, "; ")
	}
	return "ranks differ so far: " + strings.Join(parts, "; ")
}

// hasNotShown: "rank 2 has what ranks 0,1 have not shown (yet): graph break …, +2 more"; of a run that ended:
// "… had not shown when it ended: …".
func hasNotShown(more, fewer []int, items []string, live bool) string {
	if len(items) > report.SummaryItems {
		items = append(items[:report.SummaryItems:report.SummaryItems], fmt.Sprintf("+%d more", len(items)-report.SummaryItems))
	}
	if !live {
		return fmt.Sprintf("%s %s what %s had not shown when it ended: %s", report.RankWord(more), hasHave(more),
			report.RankWord(fewer), strings.Join(items, ", "))
	}
	return fmt.Sprintf("%s %s what %s %s not shown (yet): %s", report.RankWord(more), hasHave(more), report.RankWord(fewer),
		hasHave(fewer), strings.Join(items, ", "))
}

func hasHave(ranks []int) string {
	if len(ranks) == 1 {
		return "has"
	}
	return "have"
}

// soFarGroups are the groups of a difference so far without the ranks no log record names: the log shows nothing
// of them, so "rank 1 has not shown" what another has would say nothing true of rank 1 (its probe, where it has
// one, counted frames that may be what the others logged). None where the reference group had only such ranks, or
// fewer than two groups are left: then only why the ranks are not compared is said.
func SoFarGroups(groups []RankGroup, unknown []report.RankWithoutRecords) []RankGroup {
	silent := func(r int) bool { _, ok := UnknownRank(unknown, r); return ok }
	var out []RankGroup
	for i, g := range groups {
		g.Ranks = slices.DeleteFunc(slices.Clone(g.Ranks), silent)
		if len(g.Ranks) == 0 {
			if i == 0 { // the reference: what the others have is said against it
				return nil
			}
			continue
		}
		if g.FirstDivergent != nil {
			g.FirstDivergent = maps.Clone(g.FirstDivergent)
			maps.DeleteFunc(g.FirstDivergent, func(r int, _ string) bool { return silent(r) })
		}
		out = append(out, g)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

package gate

import (
	"fmt"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

func (res *Result) baselineRule(a *triage.Analysis, o Options) {
	keyOf := (*findings.Finding).CompareKey
	if o.Baseline.byLine {
		keyOf = (*findings.Finding).LineKey
	}
	now := baselineItems(a, keyOf)
	had := map[string]BaselineItem{}
	for _, it := range o.Baseline.Items {
		had[it.Key] = it
	}
	var fresh []BaselineItem
	for _, it := range now {
		if _, ok := had[it.Key]; ok {
			continue
		}
		if it.Expected && !o.CountExpected {
			res.Notes = append(res.Notes, "new but expected (not counted): "+it.Title)
			continue
		}
		fresh = append(fresh, it)
	}
	if why := capturedMore(o.Baseline.Coverage, a.Coverage, fresh); why != "" {
		res.Notes = append(res.Notes, why)
		fresh = nil
	}
	for _, it := range fresh {
		res.fail("--baseline", "new "+playbooks.WordsOf(it.Kind).Item+" not in the baseline", it.finding)
	}
	seen := map[string]bool{}
	for _, it := range now {
		seen[it.Key] = true
	}
	unseen := map[findings.Kind]string{} // kinds the input could not show: their baseline items are not gone
	// a run of another command, or one that stopped short, shows nothing of what it never ran or reached
	notGone := ""
	switch {
	case o.Baseline.Command != "" && o.Command != "" && o.Baseline.Command != o.Command:
		notGone = "the baseline was written from another command (" + o.Baseline.Command + "; this run: " + o.Command + ")"
	case a.Unfinished() != "":
		notGone = "the run did not complete (" + a.Unfinished() + ")"
	}
	missing := 0
	for _, it := range o.Baseline.Items {
		if seen[it.Key] {
			continue
		}
		if notGone != "" {
			missing++
			continue
		}
		if why := a.Unlogged(it.Kind); why != "" {
			unseen[it.Kind] = why
			continue
		}
		res.Improved = append(res.Improved, fmt.Sprintf("%s %s (was %d×)", playbooks.WordsOf(it.Kind).Item, it.Title, it.Records))
	}
	for _, k := range findings.DiffKindOrder {
		if why := unseen[k]; why != "" {
			res.Notes = append(res.Notes, fmt.Sprintf("%s of the baseline not compared: the input %s", playbooks.WordsOf(k).Items, why))
		}
	}
	if missing > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%s of the baseline not seen here, not counted as gone: %s",
			report.Plural(missing, "item"), notGone))
	}
}

// capturedMore says "breaks up, coverage up: …" when every new item is a graph break and the run captured more
// than the baseline's (more calls captured, no more fallbacks to eager: report.MoreCaptured): the breaks rose
// because more of the program is compiled (2.15's nested graph breaks resume inside frames), which is no
// regression. "" otherwise: the new items fail.
func capturedMore(was, now *report.Coverage, fresh []BaselineItem) string {
	if len(fresh) == 0 || !report.MoreCaptured(was, now) {
		return ""
	}
	for _, it := range fresh {
		if it.Kind != findings.KindGraphBreak {
			return ""
		}
	}
	return fmt.Sprintf("breaks up, coverage up: %s not in the baseline, not failed: calls captured %d → %d, graphs %d → %d, "+
		"fallbacks to eager %d → %d (more of the program ran compiled)", report.Plural(len(fresh), "new graph break"),
		was.CallsCaptured, now.CallsCaptured, was.UniqueGraphs, now.UniqueGraphs, was.FallbacksToEager, now.FallbacksToEager)
}

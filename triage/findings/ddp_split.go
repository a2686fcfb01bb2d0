package findings

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// ddpSplitFindings makes a by-design finding of each split.
func DdpSplitFindings(splits []*report.DDPSplitSummary, set *playbooks.Set, rw func([]int) string) []Finding {
	var out []Finding
	for _, s := range splits {
		f := Finding{Kind: report.KindDDPSplit, Records: s.Records, Ranks: s.Ranks, Evidence: s.Evidence, Expected: true,
			Category: CategoryExpected}
		if f.Evidence == nil {
			f.Evidence = []report.Evidence{}
		}
		f.What = "DDP bucket split"
		if s.Submodules >= 0 {
			f.What += " (" + report.Plural(s.Submodules, "submodule") + ")"
		}
		f.Title = "DDPOptimizer split the graph of compile " + s.CompileID + " " + s.What() +
			" at DDP bucket boundaries — by design"
		ApplyPlaybook(&f, MatchPlaybook(set, playbooks.Query{Kind: report.KindDDPSplit, Reason: f.Title}))
		f.Category, f.Expected = CategoryExpected, true // whatever a custom playbook says: the split is DDPOptimizer's design
		f.ID = "ddp_split:" + s.CompileID
		if s.Submodules >= 0 {
			f.ID += ":" + strconv.Itoa(s.Submodules)
		}
		f.Key = "ddp_split:" + strconv.Itoa(s.Submodules) // runs compare splits by their size, not by frame number
		f.RankStats = ranksFromEvidence(s.Ranks, s.Evidence, s.Records)
		f.addCompileIDs(s.Evidence)
		var d strings.Builder
		fmt.Fprintf(&d, "Compile %s: DDPOptimizer split the graph Dynamo compiled %s.\n", s.CompileID, s.What())
		if len(s.Names) > 0 {
			fmt.Fprintf(&d, "Submodules (as the split graph calls them): %s\n", strings.Join(s.Names, ", "))
		}
		fmt.Fprintf(&d, "Records: %d · %s (%s)\n", s.Records, rw(s.Ranks), s.Source())
		d.WriteString("Each submodule is compiled on its own, so one bucket's allreduce can overlap the backward of the next: no graph break to fix.")
		f.Detail = d.String()
		out = append(out, f)
	}
	return out
}

// ddpSplitAside words the splits a verdict sets aside: "1 DDPOptimizer split (3 submodules) by design", "2
// DDPOptimizer splits by design" (of several sizes, or one not counted); "" when none.
func DdpSplitAside(splits []*report.DDPSplitSummary) string {
	if len(splits) == 0 {
		return ""
	}
	words := report.Plural(len(splits), "DDPOptimizer split")
	same := true
	for _, s := range splits {
		same = same && s.Submodules >= 0 && s.Submodules == splits[0].Submodules
	}
	if same {
		words += " (" + report.Plural(splits[0].Submodules, "submodule") + ")"
	}
	return words + " by design"
}

package gate

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
)

func (res *Result) ranksRule(a *triage.Analysis) {
	ra := a.RankAgreement
	pb := ""
	for i := range a.Findings {
		f := &a.Findings[i]
		switch f.Kind {
		case findings.KindRankDisagreement:
			pb = f.Playbook
		case findings.KindConfigParity:
			res.fail("--ranks-agree", "settings differ", f)
		}
	}
	if !ra.Disagree() { // agreeing (the probes' compiles noted where they differ), or not compared (MissingEvidence)
		res.compilesNote(ra)
		return
	}
	ref := ra.Groups[0]
	for _, g := range ra.Groups[1:] {
		var parts []string
		for _, e := range g.Extra {
			parts = append(parts, "extra "+e)
		}
		for _, m := range g.Missing {
			parts = append(parts, "missing "+m)
		}
		msg := fmt.Sprintf("%s differs from %s: %s", report.RankWord(g.Ranks), report.RankWord(ref.Ranks), strings.Join(findings.CapList(parts, 4), ", "))
		if fd := ranks.GroupFirstDivergent(g); fd != "" {
			msg += " · first divergent compile id " + fd
		}
		if basis := ra.ProbeBasis(); basis != "" { // a rank no log record names: what its "none" rests on
			msg += " · " + basis
		}
		for _, o := range ra.OthersWords() { // ranks whose own agreement is not earned: not compared, and why
			msg += " · " + o
		}
		if pb != "" {
			msg += " · playbook " + pb
		}
		res.Failures = append(res.Failures, Failure{Rule: "--ranks-agree", Message: msg, Finding: string(findings.KindRankDisagreement), Playbook: pb})
	}
}

// compilesNote notes, of ranks that agree, that their probes recorded different compiles: rank agreement does not
// compare them, so --ranks-agree does not fail on them, and does not pass in silence either. Ranks not compared
// are said with their summary, which says it (MissingEvidence).
func (res *Result) compilesNote(ra ranks.RankAgreement) {
	if ra.Compiles != nil && ra.NotCompared == "" {
		res.Notes = append(res.Notes, "--ranks-agree: "+ra.Compiles.Summary)
	}
}

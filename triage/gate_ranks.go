package triage

import (
	"fmt"
	"strings"
)

func (res *GateResult) ranksRule(a *Analysis) {
	ra := a.RankAgreement
	pb := ""
	for i := range a.Findings {
		f := &a.Findings[i]
		switch f.Kind {
		case KindRankDisagreement:
			pb = f.Playbook
		case KindConfigParity:
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
		msg := fmt.Sprintf("%s differs from %s: %s", RankWord(g.Ranks), RankWord(ref.Ranks), strings.Join(CapList(parts, 4), ", "))
		if fd := groupFirstDivergent(g); fd != "" {
			msg += " · first divergent compile id " + fd
		}
		if basis := ra.ProbeBasis(); basis != "" { // a rank no log record names: what its "none" rests on
			msg += " · " + basis
		}
		for _, o := range ra.othersWords() { // ranks whose own agreement is not earned: not compared, and why
			msg += " · " + o
		}
		if pb != "" {
			msg += " · playbook " + pb
		}
		res.Failures = append(res.Failures, GateFailure{Rule: "--ranks-agree", Message: msg, Finding: string(KindRankDisagreement), Playbook: pb})
	}
}

// compilesNote notes, of ranks that agree, that their probes recorded different compiles: rank agreement does not
// compare them, so --ranks-agree does not fail on them, and does not pass in silence either. Ranks not compared
// are said with their summary, which says it (MissingEvidence).
func (res *GateResult) compilesNote(ra RankAgreement) {
	if ra.Compiles != nil && ra.NotCompared == "" {
		res.Notes = append(res.Notes, "--ranks-agree: "+ra.Compiles.Summary)
	}
}

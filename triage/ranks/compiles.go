package ranks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/report"
)

// When the compile states of CompilesDiffer were last written (CompilesDiffer.When).
const (
	CompilesWhenStopped   = "stopped"       // torchtriage stopped the run
	CompilesWhenEnded     = "ended"         // the run ended before it finished (a rank died, a non-zero exit)
	CompilesWhenSoFar     = "so_far"        // the run is still running
	CompilesWhenLast      = "last_recorded" // how the run ended is not known (the tool supervising it is gone)
	CompilesWhenCompleted = "completed"     // the run completed: each process's compiles at its exit
)

// CompilesDiffer is where the ranks' probes recorded different compiles (ProbeCompileState): different numbers of
// compiles (each counted as it ended, done or failed: a compile the tool's stop interrupted counts too), or, where
// every rank had as many and none was compiling, different last ones. It is
// a fact of the time the states were written (When), what each rank had done by then: never what a rank would have
// done later, never a difference rank agreement earned (it compares graph breaks and recompiles), never agreement.
// Groups are the ranks alike, in rank order of their first; NotKnown the ranks of the analysis whose compile state
// is not known, and why.
type CompilesDiffer struct {
	When     string             `json:"when"`
	Summary  string             `json:"summary"` // the words, as rank agreement's summary says them
	Groups   []CompileGroup     `json:"groups"`
	NotKnown []RanksNotCompared `json:"not_known,omitempty"`
}

// CompileGroup is ranks whose probes recorded the same compile state. AfterBreak is the id of the graph-break
// finding its last frame resumes after, where that frame is Dynamo's resume function of a break these ranks logged
// (torch_dynamo_resume_in_<fn>_at_<line>, at the break's file and line); "" where the log shows none.
type CompileGroup struct {
	Ranks      []int
	Compiles   int
	Phase      string
	CompileID  string
	Function   string
	File       string
	Line       int
	AfterBreak string
	afterWhat  string // the break's words: "print()"
}

func (g CompileGroup) same(s report.ProbeCompileState) bool {
	return g.Compiles == s.Compiles && g.Phase == s.Phase && g.CompileID == s.CompileID && g.Function == s.Function &&
		g.File == s.File && g.Line == s.Line
}

// compilesDiffer compares the compile states of the ranks of ev (run's, as its probes wrote them); nil where they
// show no difference, or fewer than two ranks have one. A rank's state is known where exactly one process of it
// wrote one: a process without RANK (rank source "default") is no rank, and two processes of one rank (a restarted
// worker) leave which one is the rank's not known. Different numbers of compiles are a difference. Equal
// numbers are one only where every rank was idle and the last compiles differ (compile id or frame): ranks running
// one program compile in one order, so after as many compiles each the last is the same one unless they compiled
// differently. Where a rank was still compiling, equal numbers are no difference: it may be at the next compile,
// which the others had not begun.
func compilesDiffer(ev report.ReportEvidence, fs []findings.Finding, run *report.RunFacts) *CompilesDiffer {
	if run == nil || len(run.CompileStates) == 0 || len(ev.Ranks) < 2 {
		return nil
	}
	byRank := map[int][]report.ProbeCompileState{}
	for _, s := range run.CompileStates {
		if s.RankSource != "default" {
			byRank[s.Rank] = append(byRank[s.Rank], s)
		}
	}
	var groups []CompileGroup
	var none, several []int
	for _, r := range ev.Ranks {
		switch ss := byRank[r]; {
		case r < 0:
		case len(ss) == 0:
			none = append(none, r)
		case len(ss) > 1:
			several = append(several, r)
		default:
			s := ss[0]
			i := slices.IndexFunc(groups, func(g CompileGroup) bool { return g.same(s) })
			if i < 0 {
				i, groups = len(groups), append(groups, CompileGroup{Compiles: s.Compiles, Phase: s.Phase, CompileID: s.CompileID,
					Function: s.Function, File: s.File, Line: s.Line})
			}
			groups[i].Ranks = append(groups[i].Ranks, r)
		}
	}
	if len(groups) < 2 {
		return nil
	}
	counts := slices.ContainsFunc(groups[1:], func(g CompileGroup) bool { return g.Compiles != groups[0].Compiles })
	if !counts && slices.ContainsFunc(groups, func(g CompileGroup) bool { return g.Phase == "compiling" }) {
		return nil
	}
	for i := range groups {
		groups[i].AfterBreak, groups[i].afterWhat = resumedBreak(groups[i], fs)
	}
	d := &CompilesDiffer{When: compilesWhen(run), Groups: groups}
	notKnown := func(ranks []int, ofOne, ofMany string) { // the words for one rank or several, chosen here
		switch {
		case len(ranks) == 1:
			d.NotKnown = append(d.NotKnown, RanksNotCompared{Ranks: ranks, Why: ofOne})
		case len(ranks) > 1:
			d.NotKnown = append(d.NotKnown, RanksNotCompared{Ranks: ranks, Why: ofMany})
		}
	}
	notKnown(none, "no probe compile state names it", "no probe compile state names them")
	notKnown(several, "several processes of it wrote a compile state", "several processes of each wrote a compile state")
	d.Summary = d.words(counts, len(d.NotKnown) > 0)
	return d
}

// resumedBreak is the graph-break finding a group's last frame resumes after: the frame is Dynamo's resume function
// of a break at a line (torch_dynamo_resume_in_<fn>_at_<line>), the probe recorded it at that line, and a break
// every rank of the group logged is at that file and line. "" where none is.
func resumedBreak(g CompileGroup, fs []findings.Finding) (id, what string) {
	fn, line := guard.FoldFunction(g.Function)
	if line == 0 || line != g.Line || g.File == "" {
		return "", ""
	}
	for i := range fs {
		f := &fs[i]
		if f.Kind != findings.KindGraphBreak || f.File != g.File || f.Line != line || (f.Function != "" && f.Function != fn) {
			continue
		}
		if !slices.ContainsFunc(g.Ranks, func(r int) bool { return !slices.Contains(f.Ranks, r) }) {
			return f.ID, f.What
		}
	}
	return "", ""
}

func compilesWhen(run *report.RunFacts) string {
	switch run.Outcome {
	case report.OutcomeCompleted:
		return CompilesWhenCompleted
	case report.OutcomeStopped:
		return CompilesWhenStopped
	case report.OutcomeRunning:
		return CompilesWhenSoFar
	case report.OutcomeFailed:
		return CompilesWhenEnded
	}
	return CompilesWhenLast
}

// words: "when torchtriage stopped the run, the ranks' probes had recorded different numbers of compiles:
// rank 0: 1 compile (last: [0/0] step at skip_sync.py:6); rank 1: 2 compiles (last: [1/0]
// torch_dynamo_resume_in_step_at_10 at skip_sync.py:10, which resumes after the graph break print() rank 1 logged
// there)"; of equal numbers, "… the same number of compiles, but not the same last one: …"; the ranks not
// known last ("rank 2: not known (no probe compile state names it)").
func (d *CompilesDiffer) words(counts, someUnknown bool) string {
	whose := "the ranks' probes"
	if someUnknown {
		var known []int
		for _, g := range d.Groups {
			known = append(known, g.Ranks...)
		}
		slices.Sort(known)
		whose = "the probes of " + report.RankWord(known)
	}
	what := "different numbers of compiles"
	if !counts {
		what = "the same number of compiles, but not the same last one"
	}
	var lead string
	switch d.When {
	case CompilesWhenStopped:
		lead = "when torchtriage stopped the run, " + whose + " had recorded " + what
	case CompilesWhenEnded:
		lead = "when the run ended, " + whose + " had recorded " + what
	case CompilesWhenSoFar:
		lead = "so far, " + whose + " have recorded " + what
	case CompilesWhenCompleted:
		lead = whose + " recorded " + what + ", which rank agreement does not compare"
	default:
		lead = whose + " last recorded " + what
	}
	var parts []string
	for i, g := range d.Groups {
		if i == report.SummaryGroups {
			parts = append(parts, fmt.Sprintf("… %d more groups of ranks", len(d.Groups)-report.SummaryGroups))
			break
		}
		parts = append(parts, g.words())
	}
	for _, o := range d.NotKnown {
		parts = append(parts, report.RankWord(o.Ranks)+": not known ("+o.Why+")")
	}
	return lead + ": " + strings.Join(parts, "; ")
}

// words: "rank 1: 2 compiles (last: [1/0] torch_dynamo_resume_in_step_at_10 at skip_sync.py:10, which resumes after
// the graph break print() rank 1 logged there)", "ranks 0,1: 1 compile (then compiling: [1/0] g at x.py:9)".
func (g CompileGroup) words() string {
	frame := g.Function
	if frame == "" {
		frame = "a frame not named"
	}
	if g.CompileID != "" {
		frame = "[" + g.CompileID + "] " + frame
	}
	if g.File != "" {
		frame += " at " + findings.SiteText(g.File, g.Line)
	}
	if g.AfterBreak != "" {
		frame += ", which resumes after the graph break " + g.afterWhat + " " + report.RankWord(g.Ranks) + " logged there"
	}
	state := "last: "
	if g.Phase == "compiling" {
		state = "then compiling: "
	}
	return report.RankWord(g.Ranks) + ": " + report.Plural(g.Compiles, "compile") + " (" + state + frame + ")"
}

// withCompiles adds what the ranks' probes recorded of their compiles (compilesDiffer) to an agreement that found no
// difference: of a run that did not finish, first (the one thing the on-call engineer needs of a hang whose ranks
// compiled differently); of a completed one, after the agreement. An earned difference is said as it is.
func WithCompiles(ra RankAgreement, ev report.ReportEvidence, fs []findings.Finding, run *report.RunFacts) RankAgreement {
	if ra.Disagree() {
		return ra
	}
	d := compilesDiffer(ev, fs, run)
	if d == nil {
		return ra
	}
	ra.Compiles = d
	if d.When == CompilesWhenCompleted {
		ra.Summary += "; " + d.Summary
	} else {
		ra.Summary = d.Summary + "; " + ra.Summary
	}
	return ra
}

// compilesBasis is what rank agreement read where it states a compiles difference, for the verdict's basis (the
// report's "Based on:", the JSON's verdict.basis, the TUI's info screen): "probe compile states of ranks 0,1", the
// ranks whose states it compared.
func (ra RankAgreement) CompilesBasis() []string {
	if ra.Compiles == nil {
		return nil
	}
	var ranks []int
	for _, g := range ra.Compiles.Groups {
		ranks = append(ranks, g.Ranks...)
	}
	slices.Sort(ranks)
	return []string{"probe compile states of " + report.RankWord(ranks)}
}

package ranks

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// earned keeps an agreement of several ranks only where their graph breaks and recompiles were logged, compile
// was on and the run completed (short says how it fell short, "" when it did not): otherwise "all ranks agree"
// would rest on records that could not print, or on what ranks that died or were stopped never reached. A
// difference it leaves as it is: what of it is earned, earnedDiffs says (agreeOf does both).
func (ra RankAgreement) earned(ev report.ReportEvidence, short string) RankAgreement {
	switch {
	case len(ev.Ranks) > 0:
	case ev.Torchrun: // several processes, none of whose lines says which it is
		ra.NotCompared = "no rank prefix in the input (a torchrun job)"
		ra.Summary = "not compared: a torchrun job whose lines carry no rank prefix"
		return ra
	case !ev.TorchSeen: // no process of torch at all
		ra.NotCompared, ra.Summary = "no torch output", "not compared: no torch output"
		return ra
	case ev.Processes > 1: // several processes (glog's pid), none of whose lines says which rank it is
		ra.NotCompared = fmt.Sprintf("no rank prefix in the input (%d processes)", ev.Processes)
		ra.Summary = fmt.Sprintf("not compared: %d processes whose lines carry no rank prefix", ev.Processes)
		return ra
	}
	if ev.LogSilenced != "" && len(ev.Ranks) > 1 { // a rank's log lacks what it counted: a difference is no evidence either
		ra.Agree, ra.Groups = false, nil
		ra.NotCompared = "the log lacks what the probe counted (" + ev.LogSilenced + ")"
		ra.Summary = notComparedSummary(ra.NotCompared, ev.Ranks, "")
		return ra
	}
	if ev.Partial && len(ev.Ranks) > 1 { // a cut excerpt: what the cut removed from a rank is no difference either
		ra.Agree, ra.Groups = false, nil
		ra.NotCompared = "the input is cut (" + CutWords(ev.PartialReasons) + ")"
		ra.Summary = "not judged: " + ra.NotCompared + ", so the " + strconv.Itoa(len(ev.Ranks)) + " ranks (" +
			report.CompactRanks(ev.Ranks) + ") could not be compared"
		return ra
	}
	if !ra.Agree || len(ra.Groups) == 0 || len(ra.Groups[0].Ranks) < 2 {
		return ra
	}
	why, rerun := "no torch output", "" // nothing of torch printed: TORCH_LOGS is not the reason
	if ev.TorchSeen {
		var off []string
		if !ev.GraphBreaksLogged {
			off = append(off, "graph breaks")
		}
		if !ev.RecompilesLogged {
			off = append(off, "recompiles")
		}
		switch {
		case len(off) > 0:
			why, rerun = strings.Join(off, " and ")+" were not logged (TORCH_LOGS)", ": rerun with --preset breaks"
			if ev.LoggingOf(false) == report.LoggingUnknown { // logs alone: nothing says which names were on
				why = strings.Join(off, " and ") + " show no sign they were logged (TORCH_LOGS)"
			}
		case ev.NothingCompiled() != "":
			why = ev.NothingCompiled()
		case short == "still running": // a live run: what the ranks have not reached yet is not known
			why, ra.Live = "the run is still running", true
		case short != "":
			why, ra.Cut = "the run did not complete ("+short+")", true
		default:
			return ra
		}
	}
	ranks := ra.Groups[0].Ranks
	ra.Agree, ra.NotCompared = false, why
	ra.Summary = notComparedSummary(why, ranks, rerun)
	return ra
}

// notComparedSummary is the summary of ranks not compared, and why: "not compared: graph breaks were not logged
// (TORCH_LOGS), so the 2 ranks (0,1) could not be compared: rerun with --preset breaks" (then is what follows).
func notComparedSummary(why string, ranks []int, then string) string {
	return fmt.Sprintf("not compared: %s, so the %d ranks (%s) could not be compared%s", why, len(ranks), report.CompactRanks(ranks), then)
}

// idleRanks are the ranks of a run that did not complete (short says how) that compiled nothing before it ended:
// the probe counted no frame and no compile time, and no record names them. What the others logged they never
// reached, so a difference from them is no evidence (a rank stuck before its first compiled call).
func IdleRanks(rep *report.Report, probes []report.ProcessInfo, short string) []int {
	if short == "" {
		return nil
	}
	var out []int
	for _, p := range probes {
		r := p.RankOf()
		if r < 0 || !report.CompiledNothing(p) {
			continue
		}
		if c, ok := rep.PerRank[strconv.Itoa(r)]; ok && c.GraphBreakRecords+c.Recompiles+c.RecompileLimitHits+c.CompileErrors > 0 {
			continue
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	sort.Ints(out)
	return out
}

// rankAgreeWithout compares the ranks that are not idle (idleRanks); the idle ones are named as not compared. A
// rank no log record names (unknown: the report's per_rank_unknown) is compared only where its probe's counters
// show every count agreement compares (withoutUnknownRanks).
func RankAgreeWithout(ev report.ReportEvidence, fs []findings.Finding, idle []int, short string, unknown []report.RankWithoutRecords) RankAgreement {
	ranks := slices.DeleteFunc(slices.Clone(ev.Ranks), func(r int) bool { return slices.Contains(idle, r) })
	if len(idle) == 0 || len(ranks) == len(ev.Ranks) {
		return withoutUnknownRanks(agreeOf(ev.Ranks, ev, fs, short, unknown), ev, fs, short, unknown)
	}
	why := fmt.Sprintf("%s compiled nothing before the run %s (the probe counted no frame)", report.RankWord(idle), shortVerb(short))
	if short == "still running" {
		why = report.RankWord(idle) + " compiled nothing yet (the probe counted no frame)"
	}
	if len(ranks) < 2 { // a difference from it may be only what it never reached (or never meant to run)
		return RankAgreement{Groups: []RankGroup{}, NotCompared: why, Cut: true,
			Summary: "not compared: " + why + ": a difference from it could be what it had not reached"}
	}
	e := ev
	e.Ranks = ranks
	ra := withoutUnknownRanks(agreeOf(ranks, e, fs, short, unknown), e, fs, short, unknown)
	ra.Summary += "; " + report.RankWord(idle) + " not compared: " + why
	return ra
}

// shortVerb words how a run fell short after "before the run": "was stopped by torchtriage (…)", "exited with code 1".
func shortVerb(short string) string {
	if strings.HasPrefix(short, "stopped") {
		return "was " + short
	}
	return short
}

// CutWords words why an input looks cut, for "the input is cut (…)": each partial-input reason up to its detail
// ("guard failures without their `Recompiling function` header", not the failures), once each.
func CutWords(reasons []string) string {
	var out []string
	for _, r := range reasons {
		if i := strings.Index(r, ": "); i > 0 {
			r = r[:i]
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return "it starts or ends inside a record"
	}
	return strings.Join(out, "; ")
}

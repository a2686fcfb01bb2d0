package triage

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Verdict says what state the run reached, and on what the verdict rests. State is one of the State*
// constants: steady (no recompile beyond automatic dynamic's expected first one, no graph break that is not by
// design, no fatal error, no recompile-limit hit, ranks and their settings agree — and evidence that breaks and
// recompiles were being logged and, when a launcher knows, that the run completed), not_steady, no_evidence (no
// torch output, or break/recompile logging not shown to be on), stopped (the tool or an interrupt stopped the run
// before it finished), did_not_start. Steady is State == steady. UniqueGraphs is the number of graphs compiled
// when known (probe counters, else TORCH_TRACE), else -1.
type Verdict struct {
	State        string   `json:"state"`
	Steady       bool     `json:"steady"`
	Reasons      []string `json:"reasons"`
	UniqueGraphs int      `json:"unique_graphs"`
	Summary      string   `json:"summary"`
	Basis        []string `json:"basis"` // what the verdict rests on, in words
	// FirstFailure words the error the others followed from (Report.FirstFailure); "" when none
	FirstFailure string `json:"first_failure,omitempty"`
}

// Verdict states.
const (
	StateSteady      = "steady"
	StateNotSteady   = "not_steady"
	StateNoEvidence  = "no_evidence"
	StateStopped     = "stopped"
	StateDidNotStart = "did_not_start"
	// StateHung: the run made no progress and where each rank waits is known (Analysis.Hang); a rank compiling is
	// never hung
	StateHung = "hung"
)

// StateWords is a verdict state in words ("no evidence" for no_evidence).
func StateWords(state string) string {
	if state == "" {
		return "unknown"
	}
	return strings.ReplaceAll(state, "_", " ")
}

// rerecordsFew is how many CUDA-graph re-recordings pass as warm-up: the checklist's rule.
const RerecordsFew = playbooks.RerecordsFew

func verdictOf(rep *report.Report, fs []findings.Finding, ra ranks.RankAgreement, probes []report.ProcessInfo, run *report.RunFacts, ev report.ReportEvidence, hang *report.Hang) Verdict {
	t := CountFindings(fs)
	v := Verdict{UniqueGraphs: uniqueGraphs(probes), Reasons: []string{}, Basis: append(BasisOf(ev, run), ra.CompilesBasis()...),
		FirstFailure: rep.FirstFailure.Text()}
	if v.UniqueGraphs < 0 && len(rep.Compiles) > 0 {
		v.UniqueGraphs = rep.UniqueGraphs
	}
	hung := hang != nil && hang.State == report.HangHung // what it rests on: hang.basis
	var short []string
	add := func(label, format string, args ...any) {
		short = append(short, label)
		v.Reasons = append(v.Reasons, fmt.Sprintf(format, args...))
	}
	if t.wrong > 0 { // the accuracy check's AccuracyError: the compiled result is wrong, never a pass
		add("compiled result wrong", "%s", errorReason("the compiled result is wrong (PyTorch's accuracy check)", t.wrong, t.firstWrong))
	}
	if t.errors > 0 {
		add(report.Plural(t.errors, "compile error"), "%s", errorReason(report.Plural(t.errors, "compile error"), t.errors, t.firstError))
	}
	if t.suppressed > 0 {
		what := report.Plural(t.suppressed, "frame") + " Dynamo gave up on (WON'T CONVERT: eager on every call)"
		add(what, "%s: %s [%s]", what, t.firstSuppressed.Title, t.firstSuppressed.Playbook)
	}
	if t.caught > 0 {
		what := report.Plural(t.caught, "compile error") + " caught by the program"
		add(what, "%s", errorReason(what, t.caught, t.firstCaught))
	}
	switch {
	case t.runtime > 0 && ev.LogsRejected: // import torch raised on the setting: the program never ran
		add("torch rejected TORCH_LOGS", "%s", errorReason("torch rejected TORCH_LOGS at import", t.runtime, t.firstRuntime))
	case t.runtime > 0:
		add(report.Plural(t.runtime, "process")+" crashed", "%s", errorReason(report.Plural(t.runtime, "process")+" died of a runtime error", t.runtime, t.firstRuntime))
	}
	if !hung && t.hang != nil && hang != nil && hang.Mismatch != nil && hang.Mismatch.By == "gloo_size" {
		// gloo's size check aborted a rank: no Python error says so, the mismatch is the cause of what follows
		add("collectives differ between ranks", "collectives differ between ranks: %s [%s]", hang.Summary, t.hang.Playbook)
	}
	if t.peerGone > 0 {
		what := report.Plural(t.peerGone, "process") + " died of its peer's failure"
		if t.peerGone > 1 {
			what = report.Plural(t.peerGone, "process") + " died of their peers' failure"
		}
		add(what, "%s: %s [%s]", what, t.firstPeerGone.Title, t.firstPeerGone.Playbook)
	}
	if t.unexpectedBreaks > 0 {
		what := report.Plural(t.unexpectedBreaks, "graph break") + " to fix or consider"
		add(what, "%s, e.g. %s [%s]", what, t.firstBreak.Title, t.firstBreak.Playbook)
	}
	if t.unexpectedRecompiles > 0 {
		what := report.Plural(t.unexpectedRecompiles, "recompile") + " beyond automatic dynamic"
		if t.staticRecompiles == t.unexpectedRecompiles { // automatic dynamic was off
			what = report.Plural(t.unexpectedRecompiles, "recompile") + " under torch.compile(dynamic=False)"
		}
		add(what, "%s, e.g. %s [%s]", what, t.firstRecompile.Title, t.firstRecompile.Playbook)
	}
	if t.afterWarmup > 0 { // the steady state compiled: whatever automatic dynamic expects, the run stalled there
		what := report.Plural(t.afterWarmup, "compile") + " after warm-up"
		add(what, "%s: %s [%s]", what, t.firstAfterWarmup.Title, t.firstAfterWarmup.Playbook)
	}
	if t.limits > 0 {
		add("recompile limit hit", "recompile limit hit: %s", t.firstLimit.Title)
	}
	if t.partitions > 0 {
		what := report.Plural(t.partitions, "non-cudagraphable partition")
		add(what, "%s: %s [%s]", what, t.firstGPU.Title, t.firstGPU.Playbook)
	}
	if t.skips > 0 {
		what := report.Plural(t.skips, "CUDA-graph skip")
		add(what, "%s: %s [%s]", what, t.firstSkip.Title, t.firstSkip.Playbook)
	}
	if t.cgWarnings > 0 {
		what := report.Plural(t.cgWarnings, "CUDA-graph warning") + " to fix"
		add(what, "%s: %s [%s]", what, t.firstCGWarning.Title, t.firstCGWarning.Playbook)
	}
	switch {
	case t.rerecords > RerecordsFew:
		what := report.Plural(t.rerecords, "CUDA-graph re-recording")
		add(what, "%s (more than %d): %s [%s]", what, RerecordsFew, t.firstRerecord.Title, t.firstRerecord.Playbook)
	case t.rerecords > 0 && len(short) > 0:
		// a few pass as warm-up and make no run unsteady alone; where the run is not steady anyway they are
		// listed, since they may be part of the cause (g13b: its skip is the re-record limit after 3)
		v.Reasons = append(v.Reasons, fmt.Sprintf("%s (up to %d alone leave a run steady): %s [%s]",
			report.Plural(t.rerecords, "CUDA-graph re-recording"), RerecordsFew, t.firstRerecord.Title, t.firstRerecord.Playbook))
	}
	if ra.Disagree() {
		add("ranks disagree", "ranks disagree: %s", ra.Summary)
	}
	if t.probeMismatch > 0 { // breaks or failures happened that the log does not show: its zeros are no steady state
		add("what the probe counted that the log does not show", "what the probe counted that the log does not show: %s [%s]",
			t.FirstProbeMismatch.Title, t.FirstProbeMismatch.Playbook)
	}
	if t.parity > 0 {
		add("settings differ between ranks", "%s between ranks", report.Plural(t.parity, "setting")+report.VerbS(t.parity, " differ"))
	}
	graphs := ""
	if v.UniqueGraphs >= 0 {
		graphs = "; " + report.Plural(v.UniqueGraphs, "unique graph")
	}
	found := ""
	if len(short) > 0 {
		found = "; what it printed: " + strings.Join(short, ", ")
	}
	stops := report.Interrupted(rep)
	switch {
	case run != nil && run.Outcome == report.OutcomeDidNotStart:
		v.State, v.Summary = StateDidNotStart, "did not start: "+cmp.Or(run.Error, "the command could not be launched")
	case launcherOnly(rep, run, probes, ev, t): // torchrun died (its rendezvous) before any rank of the program ran
		v.State, v.Summary = StateDidNotStart, "did not start: the launcher failed before any rank ran ("+
			text.OneLine(rep.FirstFailure.Class[strings.LastIndexByte(rep.FirstFailure.Class, '.')+1:]+": "+report.ErrorGist(rep.FirstFailure.Message), text.TitleMax)+")"
	case ev.LogsRejected && t.runtime+t.errors > 0: // import torch raised on the setting: the program never ran
		v.State, v.Summary = StateDidNotStart, "did not start: torch rejected TORCH_LOGS="+strings.Join(ev.Logs, ",")+
			" at import, before the program ran"
	case run != nil && run.Outcome == report.OutcomeFailed && !ev.TorchSeen:
		v.State, v.Summary = StateDidNotStart, "did not start: the command "+report.ExitWords(run)+" before any torch output"
	case hung:
		v.State, v.Summary = StateHung, "hung: "+hang.Summary
		if run != nil && run.Outcome == report.OutcomeStopped {
			v.Summary += "; torchtriage stopped it (" + run.StoppedBy() + ")"
		}
		v.Summary += found
		if t.hang != nil {
			v.Reasons = append([]string{fmt.Sprintf("hang: %s [%s]", t.hang.What, t.hang.Playbook)}, v.Reasons...)
		}
	case run != nil && run.Outcome == report.OutcomeStopped:
		v.State, v.Summary = StateStopped, "stopped by torchtriage ("+run.StoppedBy()+") before the run finished"+found
	case run != nil && run.Outcome == report.OutcomeInterrupted:
		v.State, v.Summary = StateStopped, interruptedWords+found
	case run == nil && len(stops) > 0 && t.errors+t.runtime == 0:
		v.State, v.Summary = StateStopped, "stopped: a process was interrupted ("+strings.Join(stops, ", ")+
			"); the log does not say by whom"+found
	case !ev.TorchSeen:
		v.State, v.Summary = StateNoEvidence, "no evidence: "+NoTorch(ev, run, rep)+found
	case len(short) > 0:
		v.State, v.Summary = StateNotSteady, "not steady: "+strings.Join(short, ", ")+graphs
	case run != nil && run.Outcome == report.OutcomeFailed:
		v.State, v.Summary = StateNotSteady, "not steady: the run "+report.ExitWords(run)+" without an error torchtriage recognises"
	case ev.NothingCompiled() != "":
		next := "; does the program reach torch.compile?"
		if ev.CompileOff != "" {
			next = "; an eager baseline to time a compiled run against"
		}
		v.State, v.Summary = StateNoEvidence, "no evidence: "+CompileOffWords(ev)+next
	case !ev.GraphBreaksLogged || !ev.RecompilesLogged:
		words, names := unlogged(ev)
		v.State, v.Summary = StateNoEvidence, "no evidence: torch ran, but nothing shows that "+words+
			" were being logged (no such records, and "+ev.AskedWords(names)+"): rerun with --preset breaks"
		if rb := ev.ResumeBreaks; len(rb) > 0 { // breaks happened: Dynamo resumed after them
			what := "a resume function shows a graph break that was not logged: "
			if len(rb) > 1 {
				what = "resume functions show " + strconv.Itoa(len(rb)) + " graph breaks that were not logged: "
			}
			v.Summary += "; " + what + resumeText(rb)
		}
	case run != nil && run.Outcome == report.OutcomeRunning:
		v.State, v.Summary = StateNoEvidence, "still running: no unexpected graph break or recompile so far"
	case run != nil && run.Outcome == report.OutcomeUnknown:
		v.State, v.Summary = StateNoEvidence, "no evidence: the run's record is unreadable, so how it ended is not known"
	case ev.NoGraphCompiled != "": // frames compiled, none with an op: no steady state of compiled code to speak of
		v.UniqueGraphs = 0
		logged := ""
		if t.expectedBreaks > 0 {
			logged = "; it logged " + report.Plural(t.expectedBreaks, "graph break") + " by design"
		}
		v.State, v.Summary = StateNoEvidence, "no evidence: "+ev.NoGraphCompiled+": none of the program's code ran compiled, "+
			"so no break or recompile in it could show"+logged+"; does the compiled call reach the model's code?"
	default:
		var aside []string // what the verdict set aside, each only when there is some
		if t.expectedBreaks > 0 {
			aside = append(aside, report.Plural(t.expectedBreaks, "graph break")+" by design")
		}
		if splits := findings.DdpSplitAside(rep.DDPSplits); splits != "" {
			aside = append(aside, splits)
		}
		if t.recompiles > 0 {
			aside = append(aside, report.Plural(t.recompiles, "expected recompile"))
		}
		extra := ""
		if len(aside) > 0 {
			extra = " (" + strings.Join(aside, ", ") + ")"
		}
		v.State, v.Summary = StateSteady, "steady state: no unexpected graph break or recompile"+agreeText(ra)+extra+graphs
		if run == nil {
			v.Summary += "; from the log alone (whether the run completed is not known)"
		}
	}
	if ev.Partial {
		v.Summary += "; the input looks cut, so this covers only what it holds"
	}
	v.Steady = v.State == StateSteady
	return v
}

func agreeText(ra ranks.RankAgreement) string {
	if len(ra.Groups) > 0 && len(ra.Groups[0].Ranks) > 1 && ra.Agree {
		return ", ranks agree"
	}
	return ""
}

// uniqueGraphs reads dynamo's counters["stats"]["unique_graphs"] from the probe (the largest over processes:
// ranks compile the same graphs); -1 when no process recorded it.
func uniqueGraphs(probes []report.ProcessInfo) int {
	n := -1
	for _, p := range probes {
		if v, ok := p.Counters["stats"]["unique_graphs"]; ok && int(v) > n {
			n = int(v)
		}
	}
	return n
}

// launcherOnly: a run the tool launched failed with no rank of the program seen (no probe file, no torch import the
// probe saw, no rank in the records) and its first failure raised in the launcher itself (torchrun's script or
// torch.distributed.elastic: testdata/recorded/rendezvous-libuv): no process of the program ran, let alone crashed.
func launcherOnly(rep *report.Report, run *report.RunFacts, probes []report.ProcessInfo, ev report.ReportEvidence, t tally) bool {
	if run == nil || run.Outcome != report.OutcomeFailed || run.TorchImported > 0 || len(probes) > 0 || len(ev.Ranks) > 0 ||
		rep.FirstFailure == nil || t.errors > 0 {
		return false
	}
	f := rep.FirstFailure
	return strings.HasSuffix(f.File, "/torchrun") || strings.Contains(f.Class, "torch.distributed.elastic.")
}

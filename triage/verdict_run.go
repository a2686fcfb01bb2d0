package triage

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// How a run ended and what killed it, in the verdict's words, and the checklist's state made of them.

// errorReason words n errors by one of them: "1 compile error: <title>"; of several, the first failure ("2
// processes died of a runtime error, first RuntimeError: …"), else an example ("…, e.g. …") when the order is
// not known or another kind came first.
func errorReason(what string, n int, first *findings.Finding) string {
	lead := ": "
	switch {
	case n <= first.Records:
	case first.FirstFailure:
		lead = ", first "
	default:
		lead = ", e.g. "
	}
	s := what + lead + strings.TrimSuffix(first.Title, findings.CaughtTitle) // "caught by the program" is in what
	if first.Playbook != "" {
		s += " [" + first.Playbook + "]"
	}
	return s
}

// Unfinished says how the run fell short of its end, "" when it ran to completion or nothing shows it did not:
// the launcher's outcome when one is known (a completed run is complete, whatever it logged); for logs alone, the
// processes that died of an error (a compile or runtime error is one dying process) and the interrupts. What an
// unfinished run did not show proves nothing: check does not pass on it, the checklist ticks nothing on it.
func (a *Analysis) Unfinished() string { return unfinished(CountFindings(a.Findings), a.Run, a.Report) }

func unfinished(t tally, run *report.RunFacts, rep *report.Report) string {
	if run != nil {
		switch run.Outcome {
		case report.OutcomeCompleted:
			return ""
		case report.OutcomeFailed:
			return report.ExitWords(run)
		case report.OutcomeStopped:
			return "stopped by torchtriage (" + run.StoppedBy() + ")"
		case report.OutcomeDidNotStart:
			return "did not start"
		case report.OutcomeRunning:
			return "still running"
		case report.OutcomeInterrupted:
			return "interrupted (the tool supervising it is gone)"
		}
		return "how it ended is not known (its record is unreadable)"
	}
	var parts []string
	if t.errors > 0 {
		parts = append(parts, report.Plural(t.errors, "process")+" died of a compile error")
	}
	if t.runtime > 0 {
		parts = append(parts, report.Plural(t.runtime, "process")+" died of a runtime error")
	}
	if t.wrong > 0 {
		parts = append(parts, report.Plural(t.wrong, "process")+" stopped by PyTorch's accuracy check (a wrong result)")
	}
	if stops := report.Interrupted(rep); len(stops) > 0 {
		parts = append(parts, "a process was interrupted ("+strings.Join(stops, ", ")+")")
	}
	return strings.Join(parts, ", ")
}

// crashOf words what killed a process of the run, "" when none died (a run the tool stopped, or one still going,
// did not crash): runtime errors, compile errors but fullgraph's breaks (the breaks step is their fix), a non-zero
// exit without an error torchtriage recognises, a command that did not start.
func crashOf(t tally, run *report.RunFacts) string {
	var parts []string
	if t.runtime > 0 {
		parts = append(parts, errorReason(report.Plural(t.runtime, "process")+" died of a runtime error", t.runtime, t.firstRuntime))
	}
	if n := t.errors - t.fullgraphErrors; n > 0 && t.firstCrashError != nil {
		parts = append(parts, errorReason(report.Plural(n, "process")+" died of a compile error", n, t.firstCrashError))
	}
	if run != nil && len(parts) == 0 && t.errors == 0 && run.Outcome == report.OutcomeDidNotStart {
		parts = append(parts, "did not start: "+cmp.Or(run.Error, "the command could not be launched"))
	}
	return strings.Join(parts, "; ")
}

// logsRejectedStep words torch's rejection of the run's TORCH_LOGS at import, with the error's finding, "" when none.
func logsRejectedStep(ev report.ReportEvidence, t tally) string {
	if !ev.LogsRejected {
		return ""
	}
	what := "torch rejected TORCH_LOGS=" + strings.Join(ev.Logs, ",") + " at import"
	if f := cmp.Or(t.firstRuntime, t.firstError); f != nil {
		what += ": " + f.Title + " [" + f.Playbook + "]"
	}
	return what
}

// failedOf says how a run failed with no process dead of an error torchtriage recognises (crashOf's are none), ""
// when it did not fail so.
func failedOf(t tally, run *report.RunFacts) string {
	if run == nil || run.Outcome != report.OutcomeFailed || t.runtime > 0 || t.errors > 0 || t.wrong > 0 {
		return ""
	}
	return "the run " + report.ExitWords(run) + " without an error torchtriage recognises (see its stderr)"
}

// stateOf is what the checklist needs, with its evidence. A log cannot show an eager baseline nor a rerun: the
// caller that knows more (the session) adds them.
func stateOf(fs []findings.Finding, ra ranks.RankAgreement, ev report.ReportEvidence, probes []report.ProcessInfo, run *report.RunFacts, rep *report.Report) playbooks.State {
	t := CountFindings(fs)
	cpuOnly := len(probes) > 0
	uses := t.partitions+t.skips+t.rerecords > 0
	for _, p := range probes {
		if p.GPU != "" {
			cpuOnly = false
		}
		if v, ok := p.Config["inductor.triton.cudagraphs"].(bool); ok && v {
			uses = true
		}
	}
	return playbooks.State{
		Ranks:                len(ev.Ranks),
		LogsKnown:            ev.LogsFrom == "run",
		BreaksLogged:         ev.GraphBreaksLogged,
		RecompilesLogged:     ev.RecompilesLogged,
		UnexpectedBreaks:     t.unexpectedBreaks + t.fullgraphErrors + t.caughtFullgraph + t.silentFailures,
		FullgraphRefused:     t.fullgraphErrors + t.caughtFullgraph,
		SilentFailures:       t.silentFailures,
		UnexpectedRecompiles: t.unexpectedRecompiles + t.limits,
		CPUOnly:              cpuOnly,
		UsesCUDAGraphs:       uses,
		CudagraphsLogged:     ev.CudagraphsOn(),
		CudagraphSkips:       t.skips,
		CudagraphPartitions:  t.partitions,
		CudagraphRerecords:   t.rerecords,
		CudagraphWarnings:    t.cgWarnings,
		RanksAgree:           ra.Agree && len(ra.SettingsDiffer) == 0,
		RanksDiffer:          ranksDiffer(ra),
		RanksNotCompared:     ra.NotCompared,
		Unfinished:           unfinished(t, run, rep),
		StoppedByTool:        run != nil && run.Outcome == report.OutcomeStopped,
		LogsRejected:         logsRejectedStep(ev, t),
		Wrong:                wrongOf(t),
		Crash:                crashOf(t, run),
		Failed:               failedOf(t, run),
		NoTorch:              NoTorch(ev, run, rep),
		CompileOff:           compileOffStep(ev),
		LogSilenced:          silencedStep(ev),
		NeedLogs:             ev.TorchSeen && (!ev.GraphBreaksLogged || !ev.RecompilesLogged),
	}
}

// ranksDiffer is why the ranks step needs work: what they logged, or only their settings, differ.
func ranksDiffer(ra ranks.RankAgreement) string {
	if ra.Agree && len(ra.SettingsDiffer) > 0 {
		return "settings differ between ranks: " + strings.Join(findings.CapList(ra.SettingsDiffer, 3), ", ")
	}
	return ""
}

// silencedStep is why a checklist step is not done on a log that lacks what the probe counted.
func silencedStep(ev report.ReportEvidence) string {
	if ev.LogSilenced == "" {
		return ""
	}
	return "the log lacks what the probe counted (" + ev.LogSilenced + "): find what silences torch's logging, or capture stderr"
}

// compileOffStep is why a checklist step needing compiled output is not run on a run that compiled nothing.
func compileOffStep(ev report.ReportEvidence) string {
	switch {
	case ev.NothingCompiled() != "":
		return ev.NothingCompiled() + "; run it compiled"
	case ev.NoGraphCompiled != "":
		return ev.NoGraphCompiled + "; get the model's code compiled"
	}
	return ""
}

// compileOffWords says that nothing compiled, and why (NothingCompiled).
func CompileOffWords(ev report.ReportEvidence) string {
	return ev.NothingCompiled() + ", so nothing could break or recompile"
}

// interruptedWords is the verdict of a run whose supervisor died (killed, out of disk, hung up): its logs stop
// wherever that happened, so they show nothing of the rest.
const interruptedWords = "interrupted: the tool supervising the run is gone, its logs end where it stopped"

// silentRunWhy says why a run (or logs alone: run nil) holds no torch output, for a side of a diff: a run the tool
// stopped, or that never started, is not blamed for printing nothing (noTorch's words).
func silentRunWhy(run *report.RunFacts) string {
	switch {
	case run == nil:
		return "printed no torch output"
	case run.Outcome == report.OutcomeDidNotStart:
		return "did not start"
	case run.Outcome == report.OutcomeRunning:
		return "has printed no torch output yet (still running)"
	case run.Outcome == report.OutcomeInterrupted:
		return "was interrupted (the tool supervising it is gone) before it printed any torch output"
	case run.StoppedBy() != "":
		return "was stopped by torchtriage (" + run.StoppedBy() + ") before it printed any torch output"
	}
	return "printed no torch output"
}

// noTorch says that a run (or the inputs given without one) printed no torch output at all, once it can no longer
// print any (not while it runs): the one wording of the verdict and of the step before the six.
func NoTorch(ev report.ReportEvidence, run *report.RunFacts, rep *report.Report) string {
	switch {
	case ev.TorchSeen || run != nil && run.Outcome == report.OutcomeRunning:
		return ""
	case run == nil && rep != nil && len(rep.Inputs) > 1: // logs given to report or open: no run is known
		return "the " + strconv.Itoa(len(rep.Inputs)) + " inputs hold no torch output at all"
	case run == nil:
		return "the input holds no torch output at all"
	case run.StoppedBy() != "": // the tool's stop, not the program's silence
		return "torchtriage stopped the run (" + run.StoppedBy() + ") before it printed any torch output"
	case run.Outcome == report.OutcomeInterrupted:
		return "the run was interrupted (the tool supervising it is gone) before it printed any torch output"
	}
	return "the run printed no torch output at all"
}

// wrongOf words the wrong results PyTorch's accuracy check found (State.Wrong), "" when none.
func wrongOf(t tally) string {
	if t.wrong == 0 {
		return ""
	}
	return errorReason("the compiled result is wrong (PyTorch's accuracy check)", t.wrong, t.firstWrong)
}

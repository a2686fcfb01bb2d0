package playbooks

import (
	"fmt"
	"strconv"
	"strings"
)

// Step statuses.
const (
	StatusDone          = "done"
	StatusNeedsWork     = "needs work"
	StatusNotRun        = "not run yet"
	StatusNotApplicable = "not applicable"
)

// StepStatus is one step of the checklist with where it stands and why.
type StepStatus struct {
	Step
	Status string
	Why    string // for not applicable, not run and needs work: the reason, in words
}

// Progress says where every step stands:
//
//  1. baseline   done when BaselineMeasured; needs work when BaselineWhy says why not; else not run
//  2. breaks     needs work while UnexpectedBreaks > 0; else not run until BreaksLogged; else done
//  3. recompiles needs work while UnexpectedRecompiles > 0; else not run until RecompilesLogged; else done
//  4. cudagraphs not applicable on a CPU-only run or when no CUDA graphs were asked for (and the cudagraphs
//     log shows none); needs work while skips, partitions, more than RerecordsFew re-recordings or CUDA-graph
//     warnings to fix are shown;
//     done when the cudagraphs log was on; else not run
//  5. ranks      not applicable with one process; not run until breaks and recompiles were logged; needs work
//     while the ranks disagree; else done
//  6. steady     done when SteadyRerun; needs work when a Rerun is not steady; else not run (it needs a rerun)
//
// On a run that did not finish (Unfinished), steps 2–6 are never done (nor CUDA graphs "not asked for"): not run.
func Progress(s State) []StepStatus {
	st := func(i int, status, why string) StepStatus {
		return StepStatus{Step: checklist[i], Status: status, Why: why}
	}
	out := make([]StepStatus, 0, len(checklist))
	switch {
	case s.BaselineMeasured:
		out = append(out, st(0, StatusDone, ""))
	case s.BaselineWhy != "":
		out = append(out, st(0, StatusNeedsWork, s.BaselineWhy))
	default:
		out = append(out, st(0, StatusNotRun, "no eager run and compiled run to compare yet"))
	}
	notLogged := func(what string) string { // "graph breaks were not logged", "no sign graph breaks were logged"
		if s.LogsKnown {
			return what + " were not logged"
		}
		return "no sign " + what + " were logged"
	}
	breaksOff, recompilesOff := notLogged("graph breaks"), notLogged("recompiles")
	breaksOn, recompilesOn := s.BreaksLogged, s.RecompilesLogged
	switch {
	case s.CompileOff != "": // nothing compiled: nothing could show, logged or not
		breaksOff, recompilesOff, breaksOn, recompilesOn = s.CompileOff, s.CompileOff, false, false
	case s.LogSilenced != "": // logged, but what printed did not all reach the log
		breaksOff, recompilesOff, breaksOn, recompilesOn = s.LogSilenced, s.LogSilenced, false, false
	case s.NoTorch != "": // nothing of torch printed: TORCH_LOGS is not why nothing was logged
		breaksOff, recompilesOff, breaksOn, recompilesOn = s.NoTorch, s.NoTorch, false, false
	}
	breakWork := "unexpected graph breaks"
	if n := s.SilentFailures; n > 0 && n >= s.UnexpectedBreaks {
		breakWork = "compile failures the log does not show (the probe counted them in " + Plural(n, "process") + ")"
	}
	switch n := s.FullgraphRefused; {
	case n > 0 && n >= s.UnexpectedBreaks:
		breakWork = Plural(n, "graph break") + " fullgraph=True refused (a compile error, not a logged break)"
	case n > 0:
		breakWork += fmt.Sprintf(" (%d of them refused by fullgraph=True: %s)", n, map[bool]string{true: "a compile error", false: "compile errors"}[n == 1])
	}
	out = append(out, logged(st, 1, breaksOn, s.UnexpectedBreaks, breaksOff, breakWork))
	out = append(out, logged(st, 2, recompilesOn, s.UnexpectedRecompiles, recompilesOff,
		"recompiles beyond automatic dynamic"))
	switch work := cudagraphWork(s); {
	case s.CPUOnly:
		out = append(out, st(3, StatusNotApplicable, "CPU-only run: no CUDA graphs"))
	case s.CompileOff != "" && len(work) == 0:
		out = append(out, st(3, StatusNotRun, s.CompileOff))
	case len(work) > 0:
		out = append(out, st(3, StatusNeedsWork, JoinAnd(work)))
	case s.CudagraphsLogged && s.UsesCUDAGraphs:
		out = append(out, st(3, StatusDone, ""))
	case s.CudagraphsLogged:
		out = append(out, st(3, StatusNotApplicable, "no CUDA graphs asked for (mode=\"reduce-overhead\" not used)"))
	case s.LogsKnown:
		out = append(out, st(3, StatusNotRun, "the cudagraphs log was not on"))
	default:
		out = append(out, st(3, StatusNotRun, "no sign the cudagraphs log was on"))
	}
	switch {
	case s.Ranks <= 1:
		out = append(out, st(4, StatusNotApplicable, "one process: nothing to compare"))
	case s.CompileOff != "":
		out = append(out, st(4, StatusNotRun, s.CompileOff))
	case s.LogSilenced != "":
		out = append(out, st(4, StatusNotRun, s.LogSilenced))
	case !s.BreaksLogged || !s.RecompilesLogged:
		out = append(out, st(4, StatusNotRun, notLogged("graph breaks and recompiles per rank")))
	case s.RanksNotCompared != "":
		out = append(out, st(4, StatusNotRun, "not compared: "+s.RanksNotCompared))
	case !s.RanksAgree:
		out = append(out, st(4, StatusNeedsWork, orDefault(s.RanksDiffer, "ranks compile differently")))
	default:
		out = append(out, st(4, StatusDone, ""))
	}
	switch {
	case s.SteadyRerun:
		out = append(out, st(5, StatusDone, ""))
	case s.Rerun != "":
		out = append(out, st(5, StatusNeedsWork, s.Rerun+", and it is not steady yet (it compiled something new, or "+
			"its verdict is not steady): fix the steps above, then rerun"))
	default:
		out = append(out, st(5, StatusNotRun, "needs a rerun of the same command that compiles nothing new"))
	}
	if s.Unfinished != "" {
		for i := 1; i < len(out); i++ {
			p := &out[i]
			if p.Status == StatusDone || p.ID == "steady" || (p.ID == "cudagraphs" && p.Status == StatusNotApplicable && !s.CPUOnly) {
				p.Status, p.Why = StatusNotRun, "the run did not finish ("+s.Unfinished+")"
			}
		}
	}
	return out
}

// RerecordsFew is how many CUDA-graph re-recordings pass as warm-up (a few shapes or pointers settling).
const RerecordsFew = 3

// cudagraphWork words what the CUDA-graph step has to fix, each with its count (none: nothing).
func cudagraphWork(s State) []string {
	var out []string
	if s.CudagraphSkips > 0 {
		out = append(out, Plural(s.CudagraphSkips, "CUDA-graph skip"))
	}
	if s.CudagraphPartitions > 0 {
		out = append(out, Plural(s.CudagraphPartitions, "non-cudagraphable partition"))
	}
	if s.CudagraphRerecords > RerecordsFew {
		out = append(out, fmt.Sprintf("%s (more than %d)", Plural(s.CudagraphRerecords, "CUDA-graph re-recording"), RerecordsFew))
	}
	if s.CudagraphWarnings > 0 {
		out = append(out, Plural(s.CudagraphWarnings, "CUDA-graph warning")+" to fix")
	}
	return out
}

// JoinAnd joins words as a list: "a", "a and b", "a, b and c".
func JoinAnd(parts []string) string {
	if n := len(parts); n > 1 {
		return strings.Join(parts[:n-1], ", ") + " and " + parts[n-1]
	}
	return strings.Join(parts, "")
}

// logged: a step that needs its log on: work found is work (whatever showed it), nothing found is done only
// when the log was on.
func logged(st func(int, string, string) StepStatus, i int, on bool, unexpected int, off, work string) StepStatus {
	switch {
	case unexpected > 0:
		return st(i, StatusNeedsWork, work)
	case !on:
		return st(i, StatusNotRun, off)
	}
	return st(i, StatusDone, "")
}

// NextStep proposes the first of the steps before the six that the State puts first (firstSteps: LogsStep,
// CrashStep, FailedStep, StoppedStep unless a step found work, EvidenceStep), else the first step that needs work,
// else the first that has not run, with the ids of the steps done (not applicable ones are not "done"). When every
// step is done or not applicable the returned Step is the zero Step.
func NextStep(s State) (Step, []string) {
	var done []string
	var work, notRun Step
	for _, p := range Progress(s) {
		switch {
		case p.Status == StatusDone:
			done = append(done, p.ID)
		case p.Status == StatusNeedsWork && work.ID == "":
			work = p.Step
		case p.Status == StatusNotRun && notRun.ID == "":
			notRun = p.Step
		}
	}
	for _, f := range firstSteps {
		if f.why(s) != "" && (!f.afterWork || work.ID == "") {
			return f.Step, done
		}
	}
	switch {
	case work.ID != "":
		return work, done
	case s.NeedLogs && s.CompileOff == "" && s.Unfinished == "":
		for _, p := range Progress(s) {
			if p.ID == "breaks" && p.Status == StatusNotRun {
				return p.Step, done
			}
		}
	}
	return notRun, done
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Plural is "1 skip" / "3 skips", "2 processes": the one rule (triage.Plural and the TUI call it).
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "s") || strings.HasSuffix(word, "x") || strings.HasSuffix(word, "sh") || strings.HasSuffix(word, "ch") {
		return strconv.Itoa(n) + " " + word + "es" // "2 processes"
	}
	return strconv.Itoa(n) + " " + word + "s"
}

package report

import "maps"

// settledByExit is rep as a run that exited 0 had it, when that status is the program's (RunFacts.Direct: python
// or torchrun, no wrapper between), or as a run of one such process that still runs: no process of it died (so
// far), so the errors its streams show as
// fatal (a traceback that was the last thing on its stream: the stream rules cannot tell a caught one from a
// fatal one) were caught, or raised in a child process the run lived on after. They become caught exceptions
// (a compile error one the program caught: still a finding, Caught), the counts of dying processes and the first
// failure go. rep itself is not changed (a live report is analysed again as records come). Any other run, and
// logs alone, keep what the streams show.
func SettledByExit(rep *Report, run *RunFacts) *Report {
	if run == nil || !run.Direct || len(rep.CompileErrors)+len(rep.RuntimeErrors) == 0 {
		return rep
	}
	// a completed run, or a single process still running, lived on after them; a job of several processes that
	// still runs may have lost one (torchrun tears the others down after)
	if settled := run.Outcome == OutcomeCompleted || run.Outcome == OutcomeRunning && run.WorldSize <= 1; !settled {
		return rep
	}
	s := *rep
	excepts := append([]ErrorSummary{}, rep.ExceptionEvents()...)
	for _, e := range rep.ErrorEvents() {
		e.Caught, e.Compile = true, true
		excepts = append(excepts, e)
	}
	for _, e := range rep.RuntimeErrorEvents() {
		e.Caught = true
		excepts = append(excepts, e)
	}
	s.exceptEvents, s.Exceptions = excepts, groupErrors(excepts)
	s.errorEvents, s.CompileErrors = []ErrorSummary{}, []ErrorSummary{}
	s.runtimeEvents, s.RuntimeErrors = []ErrorSummary{}, []ErrorSummary{}
	s.Counts.CompileErrors, s.Counts.RuntimeErrors = 0, 0
	s.PerRank = maps.Clone(rep.PerRank)
	for k, c := range s.PerRank {
		c.CompileErrors, c.RuntimeErrors = 0, 0
		s.PerRank[k] = c
	}
	s.FirstFailure = nil
	return &s
}

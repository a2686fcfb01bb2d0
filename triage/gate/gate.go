package gate

import (
	"fmt"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Options are the rules of `torchtriage check`. A negative maximum means no limit.
type Options struct {
	MaxGraphBreaks  int  // distinct graph breaks; by-design ones count only with CountExpected
	MaxRecompiles   int  // recompiles; automatic dynamic's expected first one counts only with CountExpected
	NoLimitHits     bool // any recompile-limit hit fails
	RanksAgree      bool // ranks must break and recompile alike (and run with the same settings, when probed)
	NoCompileErrors bool // any fatal error fails (compile errors and launcher/uncaught exceptions)
	CountExpected   bool
	Baseline        *Baseline // fail on a break, recompile class or skip reason not in it
	Command         string    // the command of the run gated (Baseline.Command's words), "" for logs alone
	// compile time (gate_compile.go): 0 = no limit
	MaxCompileTime   time.Duration // total compile time, all ranks
	MaxCompileSkew   time.Duration // slowest rank minus fastest
	CompileTolerance *float64      // baseline frames may grow this much (nil: DefaultTolerance, 15 %)
	// CUDA graphs: NoCudagraphSkips fails on skips and non-cudagraphable partitions; MaxCudagraphRerecords
	// (nil: no limit) on re-recordings beyond it
	NoCudagraphSkips      bool
	MaxCudagraphRerecords *int
	// WriteBaseline: the run is to be recorded as a baseline (--write-baseline), which needs its graph breaks and
	// recompiles logged: a baseline without them would call every later one new
	WriteBaseline bool
	// ExpectCrash: a break-it test (--expect-crash): the command must end with an error (a non-zero exit, an
	// uncaught exception) before its timeout; it fails when the command succeeds, or when the tool had to stop it
	// (timed out, stalled: a hang is not the crash it should be). Only a launched run (check -- CMD) can show it.
	ExpectCrash bool
	// NoCompileAfterWarmup: nothing may compile past the warm-up (--no-compile-after-warmup, warmup.go); the
	// warm-up is the run's (its --warmup-steps, else steady.DefaultWarmupSteps) unless check names one, which
	// the analysis was made with (report.RunFacts.WithWarmup)
	NoCompileAfterWarmup bool
}

// Rules reports whether any rule is set.
func (o Options) Rules() bool {
	return o.ExpectCrash || o.NoCompileAfterWarmup || o.NoCudagraphSkips || o.MaxCudagraphRerecords != nil || o.MaxGraphBreaks >= 0 || o.MaxRecompiles >= 0 || o.NoLimitHits || o.RanksAgree || o.NoCompileErrors || o.Baseline != nil ||
		o.MaxCompileTime > 0 || o.MaxCompileSkew > 0
}

// single is o with every rule off (the settings rules share kept): the base of one rule's options.
func (o Options) single() Options {
	return Options{MaxGraphBreaks: -1, MaxRecompiles: -1, CountExpected: o.CountExpected, Command: o.Command,
		CompileTolerance: o.CompileTolerance}
}

// Check applies the rules to an analysis.
func Check(a *triage.Analysis, o Options) Result {
	res := Result{Rules: []string{}, Failures: []Failure{}, Improved: []string{}, Notes: []string{},
		DidNotComplete: a.Unfinished()}
	rc := a.Report.Counts
	res.Counts.breaksLogged = a.Evidence.LoggingOf(a.Evidence.GraphBreaksLogged)
	res.Counts.recompilesLogged = a.Evidence.LoggingOf(a.Evidence.RecompilesLogged)
	res.Counts.GraphBreakRecords, res.Counts.CudagraphRerecords = rc.GraphBreakRecords, rc.CudagraphRerecords
	res.Counts.CudagraphRerecordChecks, res.Counts.CudagraphRerecordsUnknown = rc.CudagraphRerecordChecks, rc.CudagraphRerecordsUnknown
	var breaks, recomps, limits, errs []*findings.Finding
	for i := range a.Findings {
		f := &a.Findings[i]
		switch f.Kind {
		case findings.KindGraphBreak:
			if o.CountExpected || !f.Expected {
				breaks = append(breaks, f)
				res.Counts.GraphBreaks++
			} else {
				res.Counts.byDesign++
			}
		case findings.KindRecompile:
			n := f.Unexpected()
			if o.CountExpected {
				n = f.Records
			}
			res.Counts.expected += f.Records - n
			if f.ExpectedAssumed() {
				res.Counts.RecompilesExpectedAssumed += f.Records - n
			}
			if n > 0 {
				recomps = append(recomps, f)
				res.Counts.Recompiles += n
			}
		case findings.KindLimitHit:
			limits = append(limits, f)
			res.Counts.LimitHits += f.Records
			res.Counts.RecompileLimitHits += f.Records
		case findings.KindCudagraphSkip:
			res.Counts.CudagraphSkips += f.Records
		case findings.KindCudagraphPartition:
			res.Counts.CudagraphPartitions += f.Records
		case findings.KindCompileError:
			switch {
			case f.Suppressed: // torch gave up on the frame itself: it never compiles, a compile error still
				res.Counts.CompileErrorsSuppressed += f.Records
			case f.Caught: // the program caught it and went on: no process died of it; the counted line shows it
				res.Counts.CompileErrorsCaught += f.Records
				continue
			}
			errs = append(errs, f)
			res.Counts.CompileErrors += f.Records
		case findings.KindRuntimeError:
			errs = append(errs, f)
			res.Counts.RuntimeErrors += f.Records
		}
	}
	if res.RunOutcome = runOutcome(a); res.RunOutcome == "hung" {
		res.Hang = a.Hung()
	}
	if o.ExpectCrash {
		res.expectCrash(a.Run, a.Verdict.FirstFailure, res.Hang)
	}
	if o.MaxGraphBreaks >= 0 {
		rule := fmt.Sprintf("--max-graph-breaks=%d", o.MaxGraphBreaks)
		alone := o.single()
		alone.MaxGraphBreaks = o.MaxGraphBreaks
		res.rule(a, rule, alone)
		if res.Counts.GraphBreaks > o.MaxGraphBreaks {
			for _, f := range breaks {
				res.fail(rule, fmt.Sprintf("%s > %d", report.Plural(res.Counts.GraphBreaks, "graph break"), o.MaxGraphBreaks), f)
			}
		}
	}
	if o.MaxRecompiles >= 0 {
		rule := fmt.Sprintf("--max-recompiles=%d", o.MaxRecompiles)
		alone := o.single()
		alone.MaxRecompiles = o.MaxRecompiles
		res.rule(a, rule, alone)
		if res.Counts.Recompiles > o.MaxRecompiles {
			for _, f := range recomps {
				res.fail(rule, fmt.Sprintf("%s > %d", report.Plural(res.Counts.Recompiles, "recompile"), o.MaxRecompiles), f)
			}
		}
	}
	if o.NoLimitHits {
		alone := o.single()
		alone.NoLimitHits = true
		res.rule(a, "--no-limit-hits", alone)
		for _, f := range limits {
			res.fail("--no-limit-hits", "recompile limit hit", f)
		}
	}
	if o.NoCompileErrors {
		alone := o.single()
		alone.NoCompileErrors = true
		res.rule(a, "--no-compile-errors", alone)
		for _, f := range errs {
			what := report.Plural(f.Records, "compile error")
			switch {
			case f.Kind == findings.KindRuntimeError:
				what = report.Plural(f.Records, "runtime error")
			case f.Suppressed:
				what += " torch suppressed (WON'T CONVERT: the frame runs eager on every call)"
			}
			res.fail("--no-compile-errors", what, f)
		}
	}
	if o.RanksAgree {
		alone := o.single()
		alone.RanksAgree = true
		res.rule(a, "--ranks-agree", alone)
		res.ranksRule(a)
	}
	if o.Baseline != nil {
		alone := o.single()
		alone.Baseline = o.Baseline
		res.rule(a, "--baseline", alone)
		res.baselineRule(a, o)
	}
	res.compileRules(a, o)
	res.cudagraphRules(a, o)
	res.warmupRule(a, o)
	for _, f := range res.Failures { // a failure stands: the rule was evaluated
		for r := range res.NotEvaluated {
			if r == f.Rule || strings.HasPrefix(r, f.Rule+"=") {
				delete(res.NotEvaluated, r)
			}
		}
	}
	res.Counts.cudagraphs = o.NoCudagraphSkips || o.MaxCudagraphRerecords != nil || triage.CudagraphsLogged(a) ||
		res.Counts.CudagraphSkips > 0 || res.Counts.CudagraphPartitions > 0
	res.Counts.partitionsHidden = a.PartitionsHidden() != ""
	res.Counts.skipsLogged, res.Counts.cudagraphsLogged = a.Evidence.CudagraphSkipsLogged, triage.CudagraphsLogged(a)
	res.Counts.skipsWords, res.Counts.uncounted = a.CudagraphSkipsValue(), a.Uncounted()
	res.Counts.cgLogging = a.Evidence.LoggingOf(triage.CudagraphsLogged(a))
	res.Counts.GraphBreaksByDesign, res.Counts.RecompilesExpected = res.Counts.byDesign, res.Counts.expected
	for name, lg := range map[string]report.Logging{"graph_breaks": res.Counts.breaksLogged, "recompiles": res.Counts.recompilesLogged} {
		if w := lg.Words(); w != "" {
			if res.NotCounted == nil {
				res.NotCounted = map[string]string{}
			}
			res.NotCounted[name] = w
		}
	}
	if !a.SkipsCounted() {
		if res.NotCounted == nil {
			res.NotCounted = map[string]string{}
		}
		res.NotCounted["cudagraph_skips"] = a.CudagraphSkipsValue()
	}
	res.Passed = len(res.Failures) == 0
	return res
}

// onlyExpectCrash: --expect-crash is the one rule, which the run's own end decides, whatever torch printed.
func (o Options) onlyExpectCrash() bool {
	alone := o
	alone.ExpectCrash = false
	return o.ExpectCrash && !alone.Rules()
}

// expectCrash applies --expect-crash to how the launched run ended: a crash passes (Crashed says how it ended,
// and of what when the log shows the first failure),
// success or a stop by the tool fails; a run that did not start, or whose end is not known, is left to
// DidNotComplete (exit 3).
func (res *Result) expectCrash(run *report.RunFacts, firstFailure, hang string) {
	const rule = "--expect-crash"
	res.Rules = append(res.Rules, rule)
	if run == nil {
		res.Failures = append(res.Failures, Failure{Rule: rule, Message: "no run to judge: --expect-crash gates a command it launches (check --expect-crash -- CMD)"})
		return
	}
	switch {
	case run.Outcome == report.OutcomeFailed && hang != "":
		// it ended with an error only because a collective waited until its process group gave up: it hung first
		res.Failures = append(res.Failures, Failure{Rule: rule, Message: "the command did not crash as it should: it hung " +
			"until torch's collective timeout ended it: " + hang})
	case run.Outcome == report.OutcomeFailed:
		res.Crashed = res.DidNotComplete
		if res.Crashed == "" {
			res.Crashed = "exited with an error"
		}
		if firstFailure != "" {
			res.Crashed += ": " + firstFailure
		}
	case run.Outcome == report.OutcomeCompleted:
		res.Failures = append(res.Failures, Failure{Rule: rule, Message: "the command succeeded (exit 0): it was to crash"})
	case run.Outcome == report.OutcomeStopped:
		why := "a hang, or too slow to reach the crash"
		if hang != "" {
			why = "it hung: " + hang
		}
		res.Failures = append(res.Failures, Failure{Rule: rule, Message: "the command did not crash: torchtriage stopped it (" +
			run.StoppedBy() + "): " + why})
	}
}

// runOutcome words how the run of a ended (Result.RunOutcome); "" for logs alone. A hang is told from a timeout
// by the analysis (verdict hung: where each rank waits is known), never by the stop alone.
func runOutcome(a *triage.Analysis) string {
	run := a.Run
	switch {
	case run == nil:
		return ""
	case a.Hung() != "":
		return "hung"
	}
	switch run.Outcome {
	case report.OutcomeCompleted:
		return "completed"
	case report.OutcomeFailed:
		return "crashed"
	case report.OutcomeStopped:
		if strings.HasPrefix(run.StopReason, "timed out") {
			return "timed_out"
		}
		return "stopped"
	case report.OutcomeDidNotStart:
		return "did_not_start"
	case report.OutcomeInterrupted:
		return "interrupted"
	}
	return ""
}

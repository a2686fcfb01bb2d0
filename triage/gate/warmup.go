package gate

import (
	"fmt"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/steady"
)

// --no-compile-after-warmup: every compile the probe saw past the warm-up fails the gate, one failure a cause
// (the compile_after_warmup findings, steady.AfterWarmup).

const ruleNoCompileAfterWarmup = "--no-compile-after-warmup"

func (res *Result) warmupRule(a *triage.Analysis, o Options) {
	if !o.NoCompileAfterWarmup {
		return
	}
	alone := o.single()
	alone.NoCompileAfterWarmup = true
	const rule = ruleNoCompileAfterWarmup
	res.rule(a, rule, alone)
	if afterWarmupUnjudged(a) != "" {
		return
	}
	aw := a.AfterWarmup
	res.SteadyState = aw.Summary()
	why := fmt.Sprintf("compiled after warm-up (%d %ss, by %s)", aw.WarmupSteps, aw.Unit(), aw.StepSource)
	if aw.StepSource == steady.StepsLog { // a serving framework's log alone: no steps
		why = "compiled after warm-up (" + aw.Warmup() + ")"
	}
	for i := range a.Findings {
		if f := &a.Findings[i]; f.Kind == findings.KindCompileAfterWarmup {
			res.fail(rule, why, f)
		}
	}
}

// afterWarmupUnjudged says why the steady state cannot be judged (MissingEvidence): no step clock, no step seen, a
// marker that never matched, a run that never got past its warm-up with nothing compiled after it; "" when it can.
func afterWarmupUnjudged(a *triage.Analysis) string {
	aw := a.AfterWarmup
	if why := aw.NotJudged(); why != "" {
		return "--no-compile-after-warmup: " + why
	}
	if !aw.Reached() {
		if aw.StepSource == probe.StepsOptimizer {
			return fmt.Sprintf("--no-compile-after-warmup: the run did %d steps, none past its %d-step warm-up: no steady state to judge",
				aw.StepsSeen, aw.WarmupSteps)
		}
		return fmt.Sprintf("--no-compile-after-warmup: the last step seen was %d, inside a %d-step warm-up: no steady state to judge",
			aw.StepsSeen, aw.WarmupSteps)
	}
	return ""
}

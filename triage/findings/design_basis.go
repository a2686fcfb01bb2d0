package findings

import (
	"slices"

	"github.com/torchtriage/torchtriage/triage/report"
)

// breakBasis is what a break's finding rests on where its playbook's cause is inferred from torch's wording, not
// shown by the log: the finding's Basis (said in its title) and a line for the detail, so that neither reads as
// a fact the log holds.
type breakBasis struct{ basis, detail string }

// inferredBreaks are the playbooks matched on such an inference, by id.
//
// gb-optimizer-step-wrapped: torch 2.6's UserDefinedObjectVariable.call_method (which OptimizerVariable falls back
// to for `step`) calls a method only when it is a plain function of the class and not in the instance's __dict__;
// else it raises `call_method OptimizerVariable(Adam) step [] {}`. Every 2.6 LR scheduler but ReduceLROnPlateau
// sets opt.step on the instance (LRScheduler.__init__'s patch_track_step_called, in torch/optim/lr_scheduler.py,
// a file trace_rules.FORCE_SKIP_FILES skips); the program's own `opt.step = …` prints the same bytes
// (testdata/recorded/train-loop 0005, 0010 and 0011). Whose it is the log does not say: counted, unless the probe
// shows it (optimizerStepBasis).
var inferredBreaks = map[string]breakBasis{
	"gb-optimizer-step-wrapped": {
		basis: "inferred from the wording: opt.step was set on the optimizer object, as an LR scheduler does" +
			" (no wrapper named)",
		detail: "Basis: inferred from the wording; the log names no wrapper. Torch 2.6 prints `call_method" +
			" OptimizerVariable(…) step` when the optimizer object has a `step` of its own (or its class's `step`" +
			" is not a plain function), which Dynamo 2.6 does not call. Every 2.6 LR scheduler but ReduceLROnPlateau sets" +
			" one: a wrapper in torch/optim/lr_scheduler.py, a file Dynamo skips by design. The program's own or a" +
			" library's `opt.step = …` prints the same words. Counted as a graph break: the log does not show whose" +
			" wrapper it is.",
	},
}

// breakBasisOf sets the Basis of a break whose playbook's cause is inferred (inferredBreaks), and the detail's
// paragraph on it: what the probe saw where it settles the cause, else the inference, labelled.
func breakBasisOf(f *Finding, b *report.BreakSummary, probes []report.ProcessInfo) {
	bb, ok := inferredBreaks[f.Playbook]
	if !ok {
		return
	}
	note := ""
	if f.Playbook == "gb-optimizer-step-wrapped" {
		if m := optimizerVariableClass.FindStringSubmatch(b.Reason); m != nil && len(probes) > 0 {
			ev := OptimizerStepEvidence(m[1], breakRanks(f), probes)
			if optimizerStepBasis(f, ev) {
				return
			}
			note = ev.detail("")
		}
	}
	f.Basis, f.basisDetail = bb.basis, bb.detail
	if note != "" {
		f.basisDetail += "\n" + note
	}
}

// optimizerStepBasis gives a 2.6 `OptimizerVariable(C) step` break the basis the probes show, where they show
// whose wrapper it is, and reports whether they did.
//
// The LR scheduler's wrapper is by design, and no longer counted by the break gate: the rule for breaks the input
// shows to be torch's own (isByDesignBreak's DDP and FSDP sites, the expected-* playbooks, among them
// expected-lr-scheduler-step, 2.14.1's GB0007 for this very wrapper; playbook facts: "by design … keep out of the
// zero-break gate"). The inference from the wording alone stays counted: there the input does not show it. The
// probe is taken as showing it only conservatively: every process that printed the break has a probe file with a
// complete scan, each of those processes had a live optimizer of the class the break names whose `step` is the
// scheduler's own wrapper (a function in torch/optim/lr_scheduler.py, marked `_wrapped_by_lr_sched`, over the
// class's step: optim_scan.py), and none of the class in any of them had another callable as `step`. It saw the
// step at exit, not at the break; the detail says so. The program's own wrapper stays counted, as before.
func optimizerStepBasis(f *Finding, ev stepEvidence) bool {
	switch ev.Whose() {
	case report.StepLRScheduler:
		f.Expected, f.Category, f.Severity = true, CategoryExpected, "info"
	case report.StepOther:
	default:
		return false
	}
	who := "the process that printed it"
	if r := breakRanks(f); len(r) > 1 || r[0] >= 0 {
		who = "every process that printed it (" + report.RankText(r) + ")"
	}
	f.Basis, f.basisDetail = ev.basis(), ev.detail(who)
	return true
}

// breakRanks is the ranks whose records the finding holds, sorted; [-1] for a process without rank.
func breakRanks(f *Finding) []int {
	var out []int
	for r := range f.RankStats {
		out = append(out, r)
	}
	if len(out) == 0 {
		out = append(out, f.Ranks...)
	}
	if len(out) == 0 {
		return []int{-1}
	}
	slices.Sort(out)
	return out
}

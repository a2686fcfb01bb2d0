package triage

// breakBasis is what a break's finding rests on where its playbook's cause is inferred from torch's wording, not
// shown by the log: a clause for the title and a line for the detail, so that neither reads as a fact the log
// holds.
type breakBasis struct{ title, detail string }

// inferredBreaks are the playbooks matched on such an inference, by id.
//
// gb-optimizer-step-wrapped: torch 2.6's UserDefinedObjectVariable.call_method (which OptimizerVariable falls back
// to for `step`) calls a method only when it is a plain function of the class and not in the instance's __dict__;
// else it raises `call_method OptimizerVariable(Adam) step [] {}`. Every 2.6 LR scheduler but ReduceLROnPlateau
// sets opt.step on the instance (LRScheduler.__init__'s patch_track_step_called, in torch/optim/lr_scheduler.py,
// a file trace_rules.FORCE_SKIP_FILES skips); the program's own `opt.step = …` prints the same bytes
// (testdata/recorded/train-loop 0005, 0010 and 0011). Whose it is the log does not say: counted.
var inferredBreaks = map[string]breakBasis{
	"gb-optimizer-step-wrapped": {
		title: " — inferred from the wording: opt.step was set on the optimizer object, as an LR scheduler" +
			" does (no wrapper named)",
		detail: "Basis: inferred from the wording; the log names no wrapper. Torch 2.6 prints `call_method" +
			" OptimizerVariable(…) step` when the optimizer object has a `step` of its own (or its class's `step`" +
			" is not a plain function), which Dynamo 2.6 does not call. Every 2.6 LR scheduler but ReduceLROnPlateau sets" +
			" one: a wrapper in torch/optim/lr_scheduler.py, a file Dynamo skips by design. The program's own or a" +
			" library's `opt.step = …` prints the same words. Counted as a graph break: the log does not show whose" +
			" wrapper it is.",
	},
}

package playbooks

// CrashStep is proposed before every step while a process of the run died (State.Crash): a dead process compiles
// nothing more, so no step can show what it needs. It is not one of the six (N is 0).
var CrashStep = Step{
	ID: "crash", Title: "Fix the crash first",
	Goal:     "The run reaches its end: a process that died compiled and ran nothing after that point.",
	When:     "When a process died: a runtime error, a compile error, or a non-zero exit.",
	DoneWhen: "Every process exits 0; then the checklist resumes.",
	StopWhen: "The crash happens eager too (preset eager): it is the program's, not compile's; fix it before triaging compile.",
}

// WrongStep is proposed before every step while PyTorch's accuracy check found the compiled result wrong
// (State.Wrong): speed and breaks mean nothing while the numbers are wrong. It is not one of the six (N is 0).
var WrongStep = Step{
	ID: "wrong", Title: "Find where the compiled result goes wrong first",
	Goal:     "The compiled model computes what eager does: PyTorch's accuracy check found a compiled graph's result wrong.",
	When:     "When PyTorch's accuracy check (TORCHDYNAMO_REPRO_LEVEL=4) raised AccuracyError.",
	DoneWhen: "The ladder (torchtriage ladder --check-accuracy -- CMD) names the first wrong backend and every tier passes on the fix, or the pack is reported to PyTorch.",
	StopWhen: "Only inductor is wrong and it is not your code: ship the last backend that is right (or eager) for this module and report it with torchtriage bundle.",
}

// LogsStep is proposed before every step while torch rejected the run's TORCH_LOGS at import (State.LogsRejected):
// the program never ran, so nothing compiled and nothing was logged. It is not one of the six (N is 0).
var LogsStep = Step{
	ID: "torch-logs", Title: "Fix TORCH_LOGS first",
	Goal:     "Torch accepts the TORCH_LOGS setting: it rejected it when imported, so the program never ran.",
	When:     "When torch raised reading TORCH_LOGS at import (an unknown name, a dotted name of no module).",
	DoneWhen: "The run gets past import torch and prints torch output; then the checklist resumes.",
	StopWhen: "A name you need is not in the list torch prints: this torch version does not have it; use a preset without it.",
}

// FailedStep is proposed before every step while the run failed without a process dying of an error torchtriage
// recognises (State.Failed: a non-zero exit, a signal it did not send): no crash to fix, but what the run never
// reached no step can show. It is not one of the six (N is 0).
var FailedStep = Step{
	ID: "failed", Title: "Find why the run failed first",
	Goal:     "The run reaches its end: it exited non-zero or was killed, so what it did not reach is not known.",
	When:     "When the run exited non-zero or was killed by a signal torchtriage did not send, with no error it recognises.",
	DoneWhen: "The run exits 0; then the checklist resumes.",
	StopWhen: "It fails eager too (preset eager): it is the program's exit, not compile's.",
}

// HangStep is proposed before every step while the run hung and the tool knows where each rank waits (State.Hung):
// no rank gets past the collective it waits in, so no step can show more; the hang finding says why and what to
// do. It is not one of the six (N is 0).
var HangStep = Step{
	ID: "hang", Title: "Unblock the ranks first",
	// Preset is the distributed debugging run the step relaunches into (the TUI's enter on the checklist):
	// TORCH_DISTRIBUTED_DEBUG=DETAIL names each rank's collective
	Preset:    "distributed",
	TorchLogs: "graph_breaks,recompiles,ddp_graphs per rank, plus TORCH_TRACE and TORCH_DISTRIBUTED_DEBUG=DETAIL",
	Goal:      "Every rank reaches the same collectives in the same order, so the run gets past where it hung.",
	When:      "When the run made no progress and the stack dumps show where each rank waits (verdict hung).",
	DoneWhen:  "A run of the same command ends on its own, every rank past the collective it hung in; then the checklist resumes.",
	StopWhen:  "Where the ranks wait does not say which collective differs: relaunch with preset distributed (TORCH_DISTRIBUTED_DEBUG=DETAIL names each rank's op and shape).",
}

// StoppedStep is proposed before every step while torchtriage stopped the run (its timeout, a cancel) before it
// finished (State.StoppedByTool): what it never reached no step can show. It is not one
// of the six (N is 0).
var StoppedStep = Step{
	ID: "stopped", Title: "Let the run finish first",
	Goal:     "The run reaches its end: torchtriage stopped it, so what it had not reached is not known.",
	When:     "When torchtriage stopped the run (--timeout, a cancel, quitting) before it finished.",
	DoneWhen: "A run of the same command ends on its own; then the checklist resumes.",
	StopWhen: "It hangs whatever the time allowed (a stall with nothing compiling): find where each rank waits (the stack dump, s).",
}

// EvidenceStep is proposed before the six while the run printed no torch output at all (State.NoTorch): no step
// can show anything without it. It is not one of the six (N is 0).
var EvidenceStep = Step{
	ID: "evidence", Title: "Get torch output first",
	Goal:     "The run shows torch at work: a torch log line, a compile record, a trace or a traceback through torch.",
	When:     "When the run printed nothing from torch.",
	DoneWhen: "The report's evidence says torch was seen; then the checklist resumes.",
	StopWhen: "The command never reaches torch.compile (another script, an early exit, TORCH_LOGS not in its environment): fix the command first.",
}

// firstStep is a step proposed before the six (N 0) while its state holds. firstSteps is the one list of them:
// NextStep proposes from it, Why words from it, so the two cannot name different steps, orders or reasons.
type firstStep struct {
	Step
	// why says what in the State makes the step come first, "" while nothing does
	why func(State) string
	// afterWork: work a step of the six found comes before it (the tool's stop: no crash to fix, what it found stands)
	afterWork bool
}

// firstSteps are the steps before the six, in the order they come: the first whose why is set is proposed.
var firstSteps = []firstStep{
	{LogsStep, func(s State) string { return s.LogsRejected }, false},
	{WrongStep, func(s State) string { return s.Wrong }, false},
	{CrashStep, func(s State) string { return s.Crash }, false},
	{FailedStep, func(s State) string { return s.Failed }, false},
	{HangStep, func(s State) string { return s.Hung }, false},
	{StoppedStep, stoppedWhy, true},
	{EvidenceStep, func(s State) string { return s.NoTorch }, false},
}

// stoppedWhy is how the run the tool stopped fell short (State.Unfinished), "" when the tool did not stop it.
func stoppedWhy(s State) string {
	if !s.StoppedByTool {
		return ""
	}
	return orDefault(s.Unfinished, "stopped by torchtriage")
}

// Why is what makes a step that comes before the six (N 0: LogsStep, WrongStep, CrashStep, FailedStep, HangStep, StoppedStep,
// EvidenceStep) the next one, "" for the six and for a step nothing in the State puts first.
func (s State) Why(step Step) string {
	for _, f := range firstSteps {
		if f.ID == step.ID {
			return f.why(s)
		}
	}
	return ""
}

package report

import "github.com/torchtriage/torchtriage/triage/probe"

// What the probe saw of a process's optimizers at exit (triage/probe/optim_scan.py): torch 2.6 breaks the graph
// at a compiled `opt.step()` when the optimizer object has a `step` of its own, and its log does not say whose.
// triage/probe defines the record (probe.OptimScan); these are its names here.

type (
	// OptimScan is the probe's scan of the live torch.optim.Optimizer objects at a process's exit.
	OptimScan = probe.OptimScan
	// OptimizerStep is one kind of optimizer the probe found: its class, what its step was, and how many.
	OptimizerStep = probe.OptimizerStep
)

// Scan results (OptimScan.Scan).
const (
	ScanComplete = probe.ScanComplete
	ScanPartial  = probe.ScanPartial
)

// What an optimizer's step was (OptimizerStep.Step).
const (
	StepOriginal    = probe.StepOriginal
	StepLRScheduler = probe.StepLRScheduler
	StepOther       = probe.StepOther
)

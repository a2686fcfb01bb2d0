package probe

// What the probe saw of a process's optimizers at exit (optim_scan.py, Info.Optim): torch 2.6 breaks the graph at a
// compiled `opt.step()` when the optimizer object has a `step` of its own, and its log does not say whose.

// OptimScan is the probe's scan of the live torch.optim.Optimizer objects at a process's exit.
type OptimScan struct {
	// Scan is ScanComplete (every object the garbage collector tracks was looked at) or ScanPartial (cut by the
	// probe's bounds on time and count: an optimizer it did not see may exist).
	Scan       string          `json:"scan"`
	Optimizers []OptimizerStep `json:"optimizers"`
}

// Scan results.
const (
	ScanComplete = "complete"
	ScanPartial  = "partial"
)

// What an optimizer's step was (OptimizerStep.Step).
const (
	StepOriginal    = "original"     // none set on the instance: the class's own
	StepLRScheduler = "lr_scheduler" // the wrapper LRScheduler.__init__ sets, over the class's own step
	StepOther       = "other"        // another callable set on the instance (Wrapper, File, Line say which)
)

// OptimizerStep is one kind of optimizer the probe found: its class, what its step was, and how many.
type OptimizerStep struct {
	Class string `json:"class"` // the class's __name__: "Adam", as 2.6's OptimizerVariable(Adam) names it
	Step  string `json:"step"`  // StepOriginal, StepLRScheduler or StepOther
	Count int    `json:"count"`
	// Wrapper, File and Line are, for StepOther, the function's qualified name and where it is defined (its code
	// object's, whatever functools.wraps copied); a callable that is no function has only Wrapper (its type).
	Wrapper string `json:"wrapper,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
}

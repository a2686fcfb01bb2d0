package findings

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Torch 2.6's `call_method OptimizerVariable(Adam) step [] {}` names no wrapper (findings_design_basis.go): the
// scheduler's and the program's print the same words. The probe (optim_scan.py) saw, at exit, what each live
// optimizer's `step` was; where it saw it in every process that printed the break, the finding says whose it is.

// optimizerVariableClass is the optimizer class 2.6's wording names: "Adam" of `OptimizerVariable(Adam) step`.
var optimizerVariableClass = regexp.MustCompile(`OptimizerVariable\(([^)]*)\) step \[`)

// stepEvidence is what the probes say of the step of the optimizer class a break names.
type stepEvidence struct {
	class     string
	scheduler int                    // optimizers of the class whose step is the LR scheduler's wrapper
	others    []report.OptimizerStep // those whose step is another callable
	original  int                    // those with the class's own step
	missing   string                 // why the probes cannot say (no file, no scan, a partial scan); "" when they can
}

// optimizerStepEvidence reads the probes of the processes that printed a break of the class's step: ranks are
// the break's (-1: a process without rank). Each rank needs a probe file, and each of its files a complete scan.
func OptimizerStepEvidence(class string, ranks []int, probes []report.ProcessInfo) stepEvidence {
	ev := stepEvidence{class: class}
	if len(ranks) == 0 {
		ranks = []int{-1}
	}
	for _, r := range ranks {
		n := 0
		for _, p := range probes {
			if p.RankOf() != r {
				continue
			}
			n++
			switch {
			case p.Optim == nil:
				ev.missing = "a probe file of a process that printed it has no optimizer scan (an older probe, or torch.optim not imported)"
			case p.Optim.Scan != report.ScanComplete:
				ev.missing = "the probe's optimizer scan was cut short (" + p.Optim.Scan + ") in a process that printed it"
			}
			if p.Optim == nil {
				continue
			}
			for _, o := range p.Optim.Optimizers {
				if o.Class != class {
					continue
				}
				switch o.Step {
				case report.StepLRScheduler:
					ev.scheduler += o.Count
				case report.StepOther:
					ev.others = append(ev.others, o)
				case report.StepOriginal:
					ev.original += o.Count
				}
			}
		}
		if n == 0 && ev.missing == "" {
			ev.missing = "no probe file of a process that printed it (killed, --no-probe, or a log without a run)"
		}
	}
	return ev
}

// whose is StepLRScheduler or StepOther where the probes show whose wrapper it is, else "".
func (ev stepEvidence) Whose() string {
	switch {
	case ev.missing != "":
		return ""
	case ev.scheduler > 0 && len(ev.others) == 0:
		return report.StepLRScheduler
	case ev.scheduler == 0 && len(ev.others) > 0:
		return report.StepOther
	}
	return ""
}

// basis is the finding's Basis where the probes show whose wrapper it is: "probe: Adam.step wrapped by the LR
// scheduler", "probe: Adam.step replaced by the program's counted_step (wrapped_step.py:13)".
func (ev stepEvidence) basis() string {
	switch ev.Whose() {
	case report.StepLRScheduler:
		return "probe: " + ev.class + ".step wrapped by the LR scheduler"
	case report.StepOther:
		var names []string
		lib := false
		for _, o := range ev.others {
			if n := wrapperName(o); !slices.Contains(names, n) {
				names = append(names, n)
			}
			lib = lib || o.File == "" || logparse.IsLibraryFile(o.File)
		}
		by := "replaced by the program's "
		if lib {
			by = "replaced by another callable: "
		}
		return "probe: " + ev.class + ".step " + by + strings.Join(CapList(names, 2), ", ")
	}
	return ""
}

// wrapperName is "counted_step (wrapped_step.py:13)", "hooked (acc/opt.py:40)", or the callable's type where it is
// no function.
func wrapperName(o report.OptimizerStep) string {
	if o.File == "" {
		return o.Wrapper
	}
	return o.Wrapper + " (" + ShortPath(o.File) + ":" + strconv.Itoa(o.Line) + ")" // an installed package's from its root
}

// detail is the Basis line of the finding's detail where the probes show whose wrapper it is, else what they
// saw that does not settle it ("" when they saw nothing of the class).
func (ev stepEvidence) detail(who string) string {
	const wording = " Torch 2.6 prints `call_method OptimizerVariable(…) step` when the optimizer object has a" +
		" `step` of its own, which Dynamo 2.6 does not call."
	c := ev.class
	switch ev.Whose() {
	case report.StepLRScheduler:
		return "Basis: " + ev.basis() + ". At exit the probe found, in " + who + ", " + report.Plural(ev.scheduler, c) +
			" whose `step` is the wrapper LRScheduler.__init__ sets (defined in torch/optim/lr_scheduler.py, marked" +
			" `_wrapped_by_lr_sched`, over " + c + "'s own step), and no " + c + " with another `step`." + wording +
			" By design: an LR scheduler wraps opt.step, in a file Dynamo skips. Not counted as a graph break" +
			" (--count-expected counts it). The probe saw the step at exit, not at the break."
	case report.StepOther:
		n := 0
		for _, o := range ev.others {
			n += o.Count
		}
		return "Basis: " + ev.basis() + ". At exit the probe found, in " + who + ", " + report.Plural(n, c) +
			" whose `step` was set on the object to that callable, and none with an LR scheduler's wrapper." + wording +
			" Not an LR scheduler's: counted as a graph break. The probe saw the step at exit, not at the break."
	}
	switch {
	case ev.scheduler > 0 && len(ev.others) > 0:
		return "Probe (at exit): " + report.Plural(ev.scheduler, c) + " with an LR scheduler's wrapper as `step`, and " +
			strings.Join(CapList(othersNames(ev.others), 2), ", ") + " as another's: which one this call used it" +
			" cannot tell."
	case ev.missing != "" && (ev.scheduler > 0 || len(ev.others) > 0):
		return "Probe (at exit): it saw " + c + "'s `step` set on the object, but " + ev.missing + ": not taken as" +
			" showing whose wrapper it is."
	case ev.missing == "" && ev.original > 0:
		return "Probe (at exit): every live " + c + " had its class's own `step` (" + report.Plural(ev.original, "optimizer") +
			"); a guess: the one that broke was gone, or its step put back, by then."
	case ev.missing == "":
		return "Probe (at exit): no live " + c + "; the one that broke was gone by then."
	}
	return ""
}

func othersNames(os []report.OptimizerStep) []string {
	var out []string
	for _, o := range os {
		out = append(out, wrapperName(o))
	}
	return out
}

package steady

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
)

// After warm-up: did anything compile once the program was in its steady state, where, and why. The probe stamps
// every compile a process starts with its step clocks (probe.StepLog); Of picks the clock and keeps the
// compiles at or past the warm-up's last step.

// DefaultWarmupSteps is the warm-up when neither the run nor check names one (--warmup-steps): steps 0, 1 and 2
// may compile (the first compile, the backward, automatic dynamic's first recompile), step 3 on may not.
const DefaultWarmupSteps = 3

// Kinds of a compile after warm-up (Event.Kind).
const (
	Recompile = "recompile"        // a frame compiled again: a guard failed (Reason says which)
	Compile   = "compile"          // a frame compiled for the first time: a code path warm-up never ran
	Backward  = "backward"         // a backward compiled lazily, its forward's compile at another step
	Cudagraph = "cudagraph_record" // CUDA graphs recorded (2.11+'s CUDAGRAPH_RECORDING trigger)
)

// AfterWarmup is the run's steady state as the probe's step clocks saw it.
type AfterWarmup struct {
	WarmupSteps int `json:"warmup_steps"`
	// StepSource is the clock that placed the compiles at steps: probe.StepsOptimizer, StepsMarker or StepsTime
	StepSource string `json:"step_source"`
	// StepsSeen is the most steps any process reached on that clock (its exit, else its last compile); -1 when the
	// marker never matched
	StepsSeen int `json:"steps_seen"`
	// Optimizer is the class of the optimizer whose steps were counted ("SGD"), "" for another clock
	Optimizer string `json:"optimizer,omitempty"`
	// StepMarker is the marker the run was launched with, "" for none
	StepMarker string `json:"step_marker,omitempty"`
	// Compiles is every compile the probe saw start, warm-up included
	Compiles int `json:"compiles"`
	// Events are the compiles at or after step WarmupSteps, in rank then time order
	Events []Event `json:"events"`
	// Processes is how many processes wrote a steps file; Unfinished how many of them wrote no exit line (died, or
	// still run): their steps seen are those of their last compile
	Processes  int `json:"processes"`
	Unfinished int `json:"unfinished,omitempty"`
	// LogLines is how many serving-framework lines the inputs have (vLLM, SGLang: log.go); LogWarmupEnd names the
	// first that ends a warm-up, "" when none does
	LogLines     int    `json:"log_lines,omitempty"`
	LogWarmupEnd string `json:"log_warmup_end,omitempty"`
}

// Event is one compile after warm-up.
type Event struct {
	Kind      string  `json:"kind"`
	Rank      int     `json:"rank"` // -1: a process that is no rank (no RANK in its environment)
	Step      int     `json:"step"`
	TimeS     float64 `json:"time_s"` // seconds since the process's probe started
	CompileID string  `json:"compile_id"`
	Frame     string  `json:"frame"`
	Site      string  `json:"site"` // file:line of the frame's first line
	// Reason is the first guard failure Dynamo found, as torch words it without its compile id, for a recompile
	Reason string `json:"reason"`
	// Backward: the frame's backward compiled in the same step too (folded into this event)
	Backward bool        `json:"backward,omitempty"`
	Guard    guard.Class `json:"-"` // Reason classified (Class "" when there is none)
	// Source is what placed it: SourceProbe (the probe's step clock) or SourceLog (a serving framework's line:
	// Step and TimeS are -1, Reason is the line, Input and Line where it stands, Order what places it after warm-up)
	Source    string  `json:"source"`
	Order     string  `json:"order,omitempty"`
	Input     string  `json:"input,omitempty"`
	Line      int     `json:"line,omitempty"`
	Framework string  `json:"framework,omitempty"` // of a log-sourced event: vllm, sglang
	Seconds   float64 `json:"-"`                   // of a log-sourced graph compile: the time the line gives, -1 none
}

// Judged says whether the steps were seen: an optimizer stepped, or the marker matched. Seconds alone are no
// steps: a gate on them would judge a warm-up nobody named.
func (a *AfterWarmup) Judged() bool {
	if a != nil && a.StepSource == StepsLog {
		return a.logJudged()
	}
	return a != nil && a.StepSource != probe.StepsTime && a.StepsSeen >= 0
}

// NotJudged says why the steps were not seen, "" when they were.
func (a *AfterWarmup) NotJudged() string {
	switch {
	case a == nil:
		return "the probe recorded no step clock (a run without the probe, logs alone, or one made before it kept steps)"
	case a.StepSource == probe.StepsMarker && a.StepsSeen < 0:
		return fmt.Sprintf("the step marker %q never matched the program's output", a.StepMarker)
	case a.StepSource == probe.StepsTime:
		return "no step was seen: no optimizer.step() ran and no --step-marker was given (compiles are placed by seconds only)"
	case a.StepSource == StepsLog && !a.logJudged():
		return "the serving log shows no end of warm-up (no vLLM `torch.compile took … in total`, `Initial profiling/warmup run took`, `Kernel JIT monitor activated`, no SGLang `Capture piecewise CUDA graph end.`) and no compile vLLM's JIT monitor calls one of inference"
	}
	return ""
}

// Reached says whether the run got past its warm-up: something compiled after it, or a step past it ran. On the
// optimizer's clock StepsSeen counts the steps done (step K ran when more than K were done); on the marker's it is
// the step the last match named, the step then in progress.
func (a *AfterWarmup) Reached() bool {
	if len(a.Events) > 0 {
		return true
	}
	if a.StepSource == StepsLog {
		return a.logJudged()
	}
	if a.StepSource == probe.StepsOptimizer {
		return a.StepsSeen > a.WarmupSteps
	}
	return a.StepsSeen >= a.WarmupSteps
}

// Unit is what a step is on the clock: "step", "s" for seconds.
func (a *AfterWarmup) Unit() string {
	if a.StepSource == probe.StepsTime {
		return "s"
	}
	return "step"
}

var compileIDPrefix = regexp.MustCompile(`^\[?\d+/\d+(?:_\d+)?\]?:\s*`)

// Of is the run's steady state from its probe's steps files with a warm-up of warmup steps (< 0: the
// run's own, else DefaultWarmupSteps); nil when the run has none.
func Of(run *report.RunFacts, warmup int) *AfterWarmup {
	if run == nil || len(run.Steps) == 0 {
		return nil
	}
	if warmup < 0 && run.WarmupSteps != nil {
		warmup = *run.WarmupSteps
	}
	if warmup < 0 {
		warmup = DefaultWarmupSteps
	}
	src := probe.Source(run.Steps, run.StepMarker != "")
	a := &AfterWarmup{WarmupSteps: warmup, StepSource: src, StepsSeen: -1, StepMarker: run.StepMarker,
		Events: []Event{}, Processes: len(run.Steps)}
	for _, l := range run.Steps {
		a.StepsSeen = max(a.StepsSeen, l.StepsSeen(src))
		if !l.Ended {
			a.Unfinished++
		}
		if src == probe.StepsOptimizer && a.Optimizer == "" {
			a.Optimizer = l.Optimizer
		}
		a.Compiles += len(l.Events)
		forward := map[string]int{} // compile id → index in a.Events of this process's recompile or compile
		for _, e := range l.Events {
			step := e.Step(src)
			if step < warmup {
				continue
			}
			rank := l.Rank
			if l.NoRank {
				rank = -1
			}
			ev := Event{Rank: rank, Step: step, TimeS: e.T, CompileID: e.CompileID, Frame: e.Frame, Source: SourceProbe, Seconds: -1}
			if e.File != "" {
				ev.Site = e.File + ":" + strconv.Itoa(e.Line)
			}
			switch {
			case e.Trigger == probe.TriggerBackward:
				if i, ok := forward[e.CompileID]; ok && e.CompileID != "" && a.Events[i].Step == step {
					a.Events[i].Backward = true
					continue
				}
				ev.Kind, ev.Frame = Backward, "backward"
			case e.Trigger == probe.TriggerCudagraph:
				ev.Kind = Cudagraph
			case e.Recompile():
				ev.Kind = Recompile
			default:
				ev.Kind = Compile
			}
			if e.Reason != nil {
				ev.Reason = compileIDPrefix.ReplaceAllString(*e.Reason, "")
				ev.Guard = guard.Classify(ev.Reason)
			}
			if ev.Kind == Recompile || ev.Kind == Compile {
				forward[e.CompileID] = len(a.Events)
			}
			a.Events = append(a.Events, ev)
		}
	}
	return a
}

// Cause is what a compile after warm-up is grouped by: its kind, frame and guard (class and input); two events of
// one cause share one finding.
func (e Event) Cause() string {
	return strings.Join([]string{e.Kind, e.Frame, e.Site, e.Guard.Class, e.Guard.Source, strconv.Itoa(e.Guard.Dim)}, "\x00")
}

// Why words what changed: "size of x changed 8 → 5", "size of tokens dim 1 changed 8 → 12", the guard's own
// words for other guards, "a new frame" for a first compile.
func (e Event) Why() string {
	g := e.Guard
	switch {
	case e.Source == SourceLog:
		return e.logWhy()
	case e.Kind == Compile:
		return "`" + e.Frame + "` compiled for the first time (a code path warm-up did not run)"
	case e.Kind == Backward:
		return "a backward compiled lazily (its forward compiled at another step)"
	case e.Kind == Cudagraph:
		return "CUDA graphs recorded"
	case (g.Class == "size" || g.Class == "stride") && g.Source != "" && g.Old != "" && g.New != "":
		dim := ""
		if g.Dim > 0 {
			dim = " dim " + strconv.Itoa(g.Dim)
		}
		return fmt.Sprintf("%s of %s%s changed %s → %s", g.Class, g.Source, dim, g.Old, g.New)
	case g.Detail != "" && g.Class != "other":
		return g.Detail
	case e.Reason != "":
		return e.Reason
	}
	return "no guard failure was recorded"
}

// Summary is the steady state in one line: "after warm-up (5 steps): 1 recompile at step 30 on rank 0: size of
// x changed 8 → 5"; "after warm-up (5 steps): nothing compiled (40 steps seen)".
func (a *AfterWarmup) Summary() string {
	if a == nil {
		return ""
	}
	head := "after warm-up (" + a.Warmup() + ")"
	if a.StepSource == StepsLog && len(a.Events) == 0 {
		if !a.logJudged() {
			return head + ": not judged (the log shows no end of warm-up)"
		}
		return fmt.Sprintf("%s: nothing compiled after it in the log (%d serving lines read; the log does not say how many requests were served)", head, a.LogLines)
	}
	if len(a.Events) == 0 {
		if !a.Reached() {
			return fmt.Sprintf("%s: not reached (%s)", head, a.seenWords())
		}
		return fmt.Sprintf("%s: nothing compiled (%s)", head, a.seenWords())
	}
	var parts []string
	for _, g := range Group(a.Events) {
		parts = append(parts, a.GroupWords(g))
	}
	return head + ": " + strings.Join(parts, " · ")
}

// Warmup says the warm-up and the clock: "5 steps, by SGD.step()", "3 s, by time: no step seen", "by the log:
// vLLM's `torch.compile took 264.63 s in total` (x.log line 5)".
func (a *AfterWarmup) Warmup() string {
	switch {
	case a.StepSource == StepsLog && a.LogWarmupEnd != "":
		return "by the log: warm-up ends at " + a.LogWarmupEnd
	case a.StepSource == StepsLog:
		return "by the log: no end of warm-up shown"
	case a.Unit() == "s":
		return fmt.Sprintf("%d s, by time: no step seen", a.WarmupSteps)
	}
	return fmt.Sprintf("%d %ss, by %s", a.WarmupSteps, a.Unit(), a.sourceWords())
}

func (a *AfterWarmup) sourceWords() string {
	switch a.StepSource {
	case probe.StepsOptimizer:
		if a.Optimizer != "" {
			return a.Optimizer + ".step()"
		}
		return "optimizer.step()"
	case probe.StepsMarker:
		return "step marker"
	}
	return "time"
}

func (a *AfterWarmup) seenWords() string {
	if a.StepsSeen < 0 {
		return "no step seen"
	}
	if a.Unit() == "s" {
		return fmt.Sprintf("%d s seen", a.StepsSeen)
	}
	switch a.StepSource {
	case probe.StepsMarker:
		return fmt.Sprintf("last step %d", a.StepsSeen)
	}
	return fmt.Sprintf("%d steps seen", a.StepsSeen)
}

// Group groups events by cause, in the order each cause first came.
func Group(events []Event) [][]Event {
	var order []string
	by := map[string][]Event{}
	for _, e := range events {
		k := e.Cause()
		if _, ok := by[k]; !ok {
			order = append(order, k)
		}
		by[k] = append(by[k], e)
	}
	out := make([][]Event, 0, len(order))
	for _, k := range order {
		out = append(out, by[k])
	}
	return out
}

// GroupWords says one cause: "1 recompile at step 30 on rank 0: size of x changed 8 → 5" ("1 recompile at step
// 30: …" of a process that is no rank).
func (a *AfterWarmup) GroupWords(g []Event) string {
	e := g[0]
	kind := map[string][2]string{Recompile: {"recompile", "recompiles"}, Compile: {"compile", "compiles"},
		Backward: {"backward compile", "backward compiles"}, Cudagraph: {"CUDA-graph recording", "CUDA-graph recordings"},
		JIT: {"JIT compile", "JIT compiles"}, GraphCompile: {"graph compile", "graph compiles"},
		LoadFailure: {"model recompile", "model recompiles"}}[e.Kind]
	word := kind[0]
	if len(g) > 1 {
		word = kind[1]
	}
	var steps, ranks []int
	for _, x := range g {
		steps = append(steps, x.Step)
		ranks = append(ranks, x.Rank)
	}
	slices.Sort(steps)
	slices.Sort(ranks)
	steps, ranks = slices.Compact(steps), slices.Compact(ranks)
	at := "at " + a.Unit() + " " + joinInts(steps, 4)
	if e.Source == SourceLog { // no step: where the log has it
		var lines []int
		for _, x := range g {
			lines = append(lines, x.Line)
		}
		at = "at line " + joinInts(lines, 4) + " of " + filepath.Base(e.Input)
		if len(lines) > 1 {
			at = "at lines " + joinInts(lines, 4) + " of " + filepath.Base(e.Input)
		}
	} else if a.Unit() == "s" {
		at = "at " + joinInts(steps, 4) + " s"
	} else if len(steps) > 1 {
		at = "at steps " + joinInts(steps, 4)
	}
	on := " on rank " + joinInts(ranks, 8)
	switch {
	case len(ranks) == 1 && ranks[0] < 0: // the one process, no rank
		on = ""
	case len(ranks) > 1:
		on = " on ranks " + joinInts(ranks, 8)
	}
	return fmt.Sprintf("%d %s %s%s: %s", len(g), word, at, on, e.Why())
}

func joinInts(xs []int, most int) string {
	var s []string
	for i, x := range xs {
		if i == most {
			s = append(s, fmt.Sprintf("… (%d more)", len(xs)-most))
			break
		}
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ", ")
}

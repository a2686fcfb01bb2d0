package steady

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Compiles a serving framework's own log places after its warm-up (report.Serving: vLLM, SGLang). The log gives no
// step: what orders a line is its place in its process's output, after the line that ends the framework's warm-up
// (report.ServingLine.EndsWarmup: vLLM's "torch.compile took … in total", its "Initial profiling/warmup run took",
// its "Kernel JIT monitor activated", SGLang's "Capture piecewise CUDA graph end."), or the framework's own word
// (vLLM's JIT monitor reports only compiles "during inference").

// StepsLog is the step source of a steady state only a serving framework's log gave (no probe steps).
const StepsLog = "log"

// Sources of an event (Event.Source).
const (
	SourceProbe = "probe" // the probe's step clocks placed it
	SourceLog   = "log"   // a serving framework's line: Order says what places it after warm-up
)

// Kinds of a compile a serving framework's log shows after warm-up (Event.Kind).
const (
	JIT          = "jit_during_inference" // vLLM's JIT monitor: a kernel JIT-compiled during inference
	GraphCompile = "graph_compile"        // vLLM compiled a graph for a compile range, SGLang for a dynamic shape
	LoadFailure  = "load_failure"         // vLLM compiled the model again: loading its AOT artifact failed
)

// WithLog adds to a the compiles s shows after warm-up; a nil a (no probe steps) becomes a steady state the log
// alone gives (StepSource StepsLog). Nil when both are.
func WithLog(a *AfterWarmup, s *report.Serving) *AfterWarmup {
	if s == nil || len(s.Lines) == 0 {
		return a
	}
	if a == nil {
		a = &AfterWarmup{StepSource: StepsLog, StepsSeen: -1, Events: []Event{}}
	}
	ended := map[string]report.ServingLine{} // per process: the line that ended its warm-up
	for _, l := range s.Lines {
		a.LogLines++
		end, past := ended[l.Stream()]
		if l.EndsWarmup() && !past {
			ended[l.Stream()] = l
			if a.LogWarmupEnd == "" {
				a.LogWarmupEnd = lineWords(l)
			}
			continue
		}
		if !l.Compiles() || !past && l.K != logparse.ServingJIT {
			continue
		}
		ev := Event{Rank: l.Rank, Step: -1, TimeS: -1, Source: SourceLog, Input: l.Input, Line: l.Line, Reason: l.Text}
		switch l.K {
		case logparse.ServingJIT:
			ev.Kind, ev.Frame = JIT, l.Kernel
			ev.Order = "vLLM's JIT monitor reports only compiles during inference"
			if past {
				ev.Order += fmt.Sprintf("; after %s", lineWords(end))
			}
		case logparse.ServingLoadFailure:
			ev.Kind, ev.Frame = LoadFailure, "model"
		default:
			ev.Kind, ev.Frame = GraphCompile, cmpOr(l.Range, "dynamic shape")
		}
		if ev.Order == "" {
			ev.Order = "after " + lineWords(end)
		}
		ev.Framework, ev.Seconds = l.Framework, l.Seconds
		a.Events = append(a.Events, ev)
	}
	return a
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// lineWords names a serving line by its words and place: "vLLM's `torch.compile took 264.63 s in total` (x.log
// line 5)".
func lineWords(l report.ServingLine) string {
	who := map[string]string{"vllm": "vLLM's", "sglang": "SGLang's"}[l.Framework]
	return fmt.Sprintf("%s `%s` (%s line %d)", who, strings.TrimSpace(l.Text), filepath.Base(l.Input), l.Line)
}

// logWhy words a log-sourced compile.
func (e Event) logWhy() string {
	secs := ""
	if e.Seconds >= 0 {
		secs = " (" + strconv.FormatFloat(e.Seconds, 'f', -1, 64) + " s)"
	}
	switch e.Kind {
	case JIT:
		if strings.HasPrefix(e.Reason, "RuntimeError") { // --jit-monitor-mode error: the process died of it
			return "a kernel JIT-compiled during inference: " + e.Frame + " (vLLM's JIT monitor raised RuntimeError: mode=error)"
		}
		return "a kernel JIT-compiled during inference: " + e.Frame + " (vLLM's JIT monitor)"
	case LoadFailure:
		why := "none given"
		if _, r, _ := strings.Cut(e.Reason, ", reason:"); strings.TrimSpace(r) != "" {
			why = "`" + strings.TrimSpace(r) + "`"
		}
		return "vLLM compiled the model again: its AOT artifact failed to load (reason: " + why + ")"
	}
	if e.Framework == "sglang" {
		return "SGLang compiled a graph for a dynamic shape" + secs
	}
	return "vLLM compiled a graph for compile range " + e.Frame + secs
}

// logJudged says the log shows where warm-up ended, or a compile it calls one of inference.
func (a *AfterWarmup) logJudged() bool {
	if a.LogWarmupEnd != "" {
		return true
	}
	for _, e := range a.Events {
		if e.Kind == JIT {
			return true
		}
	}
	return false
}

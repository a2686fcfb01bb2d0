package report

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// Serving frameworks' own compile lines (logparse.KindServing: vLLM's compile ranges, AOT artifacts, load-failure
// recompiles, compile-time monitor and kernel JIT monitor; SGLang's piecewise CUDA-graph capture): each line in
// the order the log has it, the compile and capture time they state, and where the log says warm-up ended. What
// compiled after that is triage/steady's (LogEvents).

// Serving is what a serving framework's lines say (Report.Serving); nil when the inputs have none.
type Serving struct {
	// Lines are every serving line, by input and line
	Lines []ServingLine `json:"lines"`
	// CompileS is the compile time the framework stated: the sum over processes of the last "torch.compile took
	// X s in total" each printed; -1 when none did
	CompileS float64 `json:"compile_s"`
	// RangeCompileS is the sum of the graphs compiled for a compile range or a dynamic shape ("Compiling a graph
	// for … takes X s"); RangeLoadS of those loaded from the cache; CaptureS of SGLang's piecewise CUDA-graph
	// captures ("Time elapsed: X s"); each -1 when no line gave it
	RangeCompileS float64 `json:"range_compile_s"`
	RangeLoadS    float64 `json:"range_load_s"`
	CaptureS      float64 `json:"capture_s"`
}

// ServingLine is one serving line, read (logparse.ServingEvent) and placed.
type ServingLine struct {
	Kind      string  `json:"kind"`      // logparse.ServingKind's name: compile_range, jit_during_inference, …
	Framework string  `json:"framework"` // vllm, sglang
	Input     string  `json:"input"`
	Line      int     `json:"line"`
	Rank      int     `json:"rank"` // -1 unknown
	Seconds   float64 `json:"seconds"`
	Emitter   string  `json:"emitter,omitempty"`
	Tag       string  `json:"tag,omitempty"`
	Range     string  `json:"range,omitempty"`
	Path      string  `json:"path,omitempty"`
	// Reason is a load failure's reason as printed; "" when vLLM gave none (torch 2.10.0's empty reason)
	Reason string `json:"reason,omitempty"`
	JIT    string `json:"jit,omitempty"`
	Kernel string `json:"kernel,omitempty"`
	Mode   string `json:"mode,omitempty"`
	Sizes  string `json:"sizes,omitempty"`
	// Text is the message as the log has it (the words a finding quotes)
	Text string `json:"text"`

	K logparse.ServingKind `json:"-"`
}

// Stream is what orders a line against the others of its process: its input and rank.
func (l ServingLine) Stream() string { return l.Input + "\x00" + string(rune(l.Rank+1)) }

// EndsWarmup says a line marks the end of the framework's warm-up: vLLM's "torch.compile took … in total" (its
// compiles done), "Initial profiling/warmup run took", "Kernel JIT monitor activated" (it watches inference from
// there), SGLang's "Capture piecewise CUDA graph end.".
func (l ServingLine) EndsWarmup() bool {
	switch l.K {
	case logparse.ServingCompileTotal, logparse.ServingWarmupRun, logparse.ServingJITMonitorOn, logparse.ServingCaptureEnd:
		return true
	}
	return false
}

// Compiles says a line is a compile: a graph compiled (a compile range, a dynamic shape), a model compiled again
// after a load failure, a kernel JIT-compiled during inference.
func (l ServingLine) Compiles() bool {
	switch l.K {
	case logparse.ServingRangeCompile, logparse.ServingShapeCompile, logparse.ServingLoadFailure, logparse.ServingJIT:
		return true
	}
	return false
}

type servingLog struct{ lines []ServingLine }

func (s *servingLog) note(r *logparse.Record) {
	ev, ok := r.Serving()
	if !ok {
		return
	}
	s.lines = append(s.lines, ServingLine{Kind: ev.Kind.String(), Framework: ev.Kind.Framework(), Input: r.Input,
		Line: r.FirstLine, Rank: r.Rank, Seconds: ev.Seconds, Emitter: ev.Emitter, Tag: ev.Tag, Range: ev.Range,
		Path: ev.Path, Reason: ev.Reason, JIT: ev.JIT, Kernel: ev.Kernel, Mode: ev.Mode, Sizes: ev.Sizes,
		Text: r.Lines[0], K: ev.Kind})
}

// noteError takes an exception whose message is vLLM's JIT monitor in error mode ("RuntimeError: Triton kernel JIT
// compilation during inference: fused_moe_kernel", --jit-monitor-mode error): the compile it raised at is a
// serving line of its own (mode "error"), as its warning would have been.
func (s *servingLog) noteError(r *logparse.Record) {
	e := r.Error
	if e == nil || !strings.HasSuffix(e.Class, "RuntimeError") {
		return
	}
	msg, _, _ := strings.Cut(e.Message, "\n")
	ev, ok := logparse.ParseServing(msg)
	if !ok || ev.Kind != logparse.ServingJIT {
		return
	}
	s.lines = append(s.lines, ServingLine{Kind: ev.Kind.String(), Framework: ev.Kind.Framework(), Input: r.Input,
		Line: r.LastLine, Rank: r.Rank, Seconds: -1, JIT: ev.JIT, Kernel: ev.Kernel, Mode: "error",
		Text: e.Class + ": " + msg, K: ev.Kind})
}

// report is the lines in input and line order (a parse in parts hands them over in any order) and their times.
func (s *servingLog) report() *Serving {
	if len(s.lines) == 0 {
		return nil
	}
	out := &Serving{Lines: slices.Clone(s.lines), CompileS: -1, RangeCompileS: -1, RangeLoadS: -1, CaptureS: -1}
	slices.SortStableFunc(out.Lines, func(a, b ServingLine) int {
		return cmp.Or(cmp.Compare(a.Input, b.Input), cmp.Compare(a.Line, b.Line))
	})
	add := func(sum *float64, x float64) {
		if x >= 0 {
			*sum = max(*sum, 0) + x
		}
	}
	total := map[string]float64{} // per process, its last total
	for _, l := range out.Lines {
		switch l.K {
		case logparse.ServingCompileTotal:
			if l.Seconds >= 0 {
				total[l.Stream()] = l.Seconds
			}
		case logparse.ServingRangeCompile, logparse.ServingShapeCompile:
			add(&out.RangeCompileS, l.Seconds)
		case logparse.ServingRangeLoaded:
			add(&out.RangeLoadS, l.Seconds)
		case logparse.ServingCaptureEnd:
			add(&out.CaptureS, l.Seconds)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(total)) { // one order: the same sum every time
		add(&out.CompileS, total[k])
	}
	return out
}

// Start says how the framework started in words, from its AOT lines: "a warm start that went cold (AOT load
// failure: reason)", "a warm start (AOT compiled model loaded)", "a cold compile (AOT artifact saved)"; "" when
// the lines say neither.
func (s *Serving) Start() string {
	if s == nil {
		return ""
	}
	loaded, saved := false, false
	for _, l := range s.Lines {
		switch l.K {
		case logparse.ServingLoadFailure:
			return "a warm start that went cold (AOT load failure, reason: " + cmp.Or(l.Reason, "none given") + ")"
		case logparse.ServingAOTLoaded:
			loaded = true
		case logparse.ServingAOTSaved:
			saved = true
		}
	}
	switch {
	case loaded:
		return "a warm start (AOT compiled model loaded)"
	case saved:
		return "a cold compile (AOT artifact saved)"
	}
	return ""
}

// Words says the compile and capture time the serving lines state, and how the start went, in one line: "vLLM:
// torch.compile took 264.63 s in total · 2 compile-range graphs compiled in 75.26 s · model compiled again after
// an AOT load failure (reason: Source code has changed since the last compilation.) · AOT artifact saved";
// text and Markdown print it (render).
func (s *Serving) Words() string {
	if s == nil {
		return ""
	}
	secs := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) + " s" }
	n := map[logparse.ServingKind]int{}
	var fails []string
	for _, l := range s.Lines {
		n[l.K]++
		if l.K == logparse.ServingLoadFailure {
			fails = append(fails, cmp.Or(l.Reason, "none given"))
		}
	}
	var parts []string
	if s.CompileS >= 0 {
		parts = append(parts, "torch.compile took "+secs(s.CompileS)+" in total (the framework's words)")
	}
	if c := n[logparse.ServingRangeCompile] + n[logparse.ServingShapeCompile]; c > 0 {
		p := Plural(c, "graph") + " compiled"
		if s.RangeCompileS >= 0 {
			p += " in " + secs(s.RangeCompileS)
		}
		parts = append(parts, p)
	}
	if c := n[logparse.ServingRangeLoaded]; c > 0 {
		p := Plural(c, "graph") + " loaded from the cache"
		if s.RangeLoadS >= 0 {
			p += " in " + secs(s.RangeLoadS)
		}
		parts = append(parts, p)
	}
	if c := n[logparse.ServingAOTLoaded]; c > 0 {
		parts = append(parts, "AOT compiled model loaded (a warm start)")
	}
	for _, r := range fails {
		parts = append(parts, "the model compiled again after an AOT load failure (reason: "+r+"): a warm start that went cold")
	}
	if c := n[logparse.ServingAOTSaved]; c > 0 {
		parts = append(parts, "AOT artifact saved (a cold compile)")
	}
	if s.CaptureS >= 0 {
		parts = append(parts, "piecewise CUDA-graph capture took "+secs(s.CaptureS))
	}
	if c := n[logparse.ServingJIT]; c > 0 {
		parts = append(parts, Plural(c, "kernel JIT compile")+" during inference")
	}
	if len(parts) == 0 {
		return Plural(len(s.Lines), "serving line") + ", no compile or capture time in them"
	}
	return strings.Join(parts, " · ")
}

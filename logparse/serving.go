package logparse

import (
	"bytes"
	"strconv"
	"strings"
)

// Serving frameworks' compile lines (docs: torch-2.15-and-frameworks.md §4.1 vLLM, §4.2 SGLang): vLLM's compile
// ranges, AOT artifacts, its load-failure recompile, its compile-time monitor and its kernel JIT monitor; SGLang's
// piecewise CUDA-graph capture. Each is one line; the message may stand behind the framework's own prefix
// ("[backends.py:N] ", a "[tag] ", a level and time): the reader finds it behind a "] " (servingInside) or at the
// start of a message (strongHead). A record of KindServing keeps its line; Record.Serving reads it (no payload
// field: a Record stays in its allocation class).

// ServingKind is what a serving line says.
type ServingKind uint8

// Serving lines.
const (
	ServingNone         ServingKind = iota
	ServingRangeCompile             // vLLM "Compiling a graph for compile range (1, 8192) takes 34.06 s"
	ServingRangeCached              // vLLM "Cache the graph of compile range (1, 2048) for later use"
	ServingRangeLoaded              // vLLM "Directly load the compiled graph(s) for compile range (1, 2048) from the cache, took 1.122 s"
	ServingShapeCompile             // SGLang "Compiling a graph for dynamic shape takes 3.38 s"
	ServingAOTSaved                 // vLLM "saved AOT compiled function to PATH": a cold compile wrote its artifact
	ServingAOTLoaded                // vLLM "Directly load AOT compilation from path PATH": a warm start
	ServingLoadFailure              // vLLM "Compiling model again due to a load failure from PATH, reason: R": warm start turned cold
	ServingCompileTotal             // vLLM "torch.compile took|takes X s in total" (optionally behind "[tag] ")
	ServingWarmupRun                // vLLM "Initial profiling/warmup run took X s" (optionally behind "[tag] ")
	ServingJITMonitorOn             // vLLM "Kernel JIT monitor activated; monitored JIT compilations during inference will use mode=warn."
	ServingJIT                      // vLLM "Triton kernel JIT compilation during inference: K (key=…). …" (or CuTeDSL)
	ServingCaptureBegin             // SGLang "Capture piecewise CUDA graph begin. avail mem=10.88 GB"
	ServingCaptureSizes             // SGLang "Capture cuda graph num tokens [4, 8, 12]"
	ServingCaptureEnd               // SGLang "Capture piecewise CUDA graph end. Time elapsed: 176.68 s. …"
)

var servingNames = [...]string{"", "compile_range", "compile_range_cached", "compile_range_loaded", "compile_dynamic_shape",
	"aot_saved", "aot_loaded", "load_failure", "compile_total", "warmup_run", "jit_monitor_on", "jit_during_inference",
	"capture_begin", "capture_sizes", "capture_end"}

func (k ServingKind) String() string {
	if int(k) < len(servingNames) {
		return servingNames[k]
	}
	return "unknown"
}

// Framework is the framework whose words a line is: "vllm" or "sglang".
func (k ServingKind) Framework() string {
	switch k {
	case ServingShapeCompile, ServingCaptureBegin, ServingCaptureSizes, ServingCaptureEnd:
		return "sglang"
	case ServingNone:
		return ""
	}
	return "vllm"
}

// ServingEvent is a KindServing record's line, read.
type ServingEvent struct {
	Kind    ServingKind
	Emitter string  // the framework's "file.py:N" in front of the message, "" when none
	Tag     string  // the "[tag] " of vLLM's monitor lines, without brackets; "" when none
	Seconds float64 // the time the line gives; -1 when none
	Range   string  // a compile range as printed: "(1, 8192)"
	Path    string  // an AOT artifact's path, or where a load failed
	Reason  string  // a load failure's reason as printed ("" when vLLM gave none, as on torch 2.10.0)
	JIT     string  // what JIT-compiled: "Triton kernel", "CuTeDSL"
	Kernel  string  // the kernel a JIT line names ("fused_moe_kernel"), with its "(key=…)" when given
	Mode    string  // the JIT monitor's mode ("warn", "error")
	Sizes   string  // SGLang's captured num tokens, as printed: "[4, 8, 12, 16, 20]"
}

var (
	sRange       = []byte("Compiling a graph for compile range ")
	sShape       = []byte("Compiling a graph for dynamic shape takes ")
	sAgain       = []byte("Compiling model again due to a load failure")
	sCached      = []byte("Cache the graph of compile range ")
	sCapture     = []byte("Capture piecewise CUDA graph ")
	sCaptureNum  = []byte("Capture cuda graph num tokens ")
	sLoadRange   = []byte("Directly load the compiled graph(s) for compile range ")
	sLoadAOT     = []byte("Directly load AOT compilation from path ")
	sSavedAOT    = []byte("saved AOT compiled function to ")
	sTook        = []byte("torch.compile took ")
	sTakes       = []byte("torch.compile takes ")
	sWarmupRun   = []byte("Initial profiling/warmup run took ")
	sMonitorOn   = []byte("Kernel JIT monitor activated")
	sTritonJIT   = []byte("Triton kernel JIT compilation during inference: ")
	sCuteJIT     = []byte("CuTeDSL JIT compilation during inference: ")
	sCloseSpace  = []byte("] ")
	servingFirst = [256]bool{'C': true, 'D': true, 's': true, 't': true, 'I': true, 'K': true, 'T': true, '[': true}
)

// servingHead reports a message that is a serving line, at its start or behind one "[file.py:N] " or "[tag] ".
func servingHead(b []byte) ServingKind {
	if len(b) < 16 || !servingFirst[b[0]] {
		return ServingNone
	}
	for n := 0; n < 2 && b[0] == '['; n++ { // "[monitor.py:N] ", "[tag] ", or both
		e := bytes.Index(b[:min(len(b), 82)], sCloseSpace)
		if e < 2 {
			return ServingNone
		}
		b = b[e+2:]
		if len(b) < 16 {
			return ServingNone
		}
	}
	switch b[0] {
	case 'C':
		switch {
		case bytes.HasPrefix(b, sRange):
			return ServingRangeCompile
		case bytes.HasPrefix(b, sShape):
			return ServingShapeCompile
		case bytes.HasPrefix(b, sAgain):
			return ServingLoadFailure
		case bytes.HasPrefix(b, sCached):
			return ServingRangeCached
		case bytes.HasPrefix(b, sCapture):
			rest := b[len(sCapture):]
			if bytes.HasPrefix(rest, []byte("begin.")) {
				return ServingCaptureBegin
			}
			if bytes.HasPrefix(rest, []byte("end.")) {
				return ServingCaptureEnd
			}
		case bytes.HasPrefix(b, sCaptureNum):
			return ServingCaptureSizes
		case bytes.HasPrefix(b, sCuteJIT):
			return ServingJIT
		}
	case 'D':
		switch {
		case bytes.HasPrefix(b, sLoadRange):
			return ServingRangeLoaded
		case bytes.HasPrefix(b, sLoadAOT):
			return ServingAOTLoaded
		}
	case 's':
		if bytes.HasPrefix(b, sSavedAOT) {
			return ServingAOTSaved
		}
	case 't':
		if (bytes.HasPrefix(b, sTook) || bytes.HasPrefix(b, sTakes)) && bytes.Contains(b, []byte(" s in total")) {
			return ServingCompileTotal
		}
	case 'I':
		if bytes.HasPrefix(b, sWarmupRun) {
			return ServingWarmupRun
		}
	case 'K':
		if bytes.HasPrefix(b, sMonitorOn) {
			return ServingJITMonitorOn
		}
	case 'T':
		if bytes.HasPrefix(b, sTritonJIT) {
			return ServingJIT
		}
	}
	return ServingNone
}

// servingInside finds a serving line behind a framework's prefix on a bare line ("INFO 07-30 12:00:01
// [backends.py:128] Compiling a graph for compile range …"): where its last "[…] " starts, or -1. One scan for
// "] " on a line without one.
func servingInside(b []byte) int {
	for from, n := 0, 0; n < 4; n++ {
		i := bytes.Index(b[from:], sCloseSpace)
		if i < 0 {
			return -1
		}
		i += from
		if servingHead(b[i+2:]) != ServingNone {
			// the bracket it closes: the emitter or tag stays with the message
			if j := bytes.LastIndexByte(b[:i], '['); j >= 0 && servingHead(b[j:]) != ServingNone {
				return j
			}
			return i + 2
		}
		from = i + 2
	}
	return -1
}

// Serving reads a KindServing record's line; ok is false for another kind.
func (r *Record) Serving() (ServingEvent, bool) {
	if r.Kind != KindServing || len(r.Lines) == 0 {
		return ServingEvent{}, false
	}
	return ParseServing(r.Lines[0])
}

// ParseServing reads one serving line (its message, with or without the "[file.py:N] " or "[tag] " in front).
func ParseServing(line string) (ServingEvent, bool) {
	ev := ServingEvent{Seconds: -1}
	msg := strings.TrimSpace(line)
	for n := 0; n < 2 && strings.HasPrefix(msg, "["); n++ { // "[monitor.py:N] ", "[tag] ", or both
		e := strings.Index(msg, "] ")
		if e < 2 {
			break
		}
		in := msg[1:e]
		if k := strings.LastIndexByte(in, ':'); k > 0 && strings.HasSuffix(in[:k], ".py") && digits(in[k+1:]) {
			ev.Emitter = in
		} else {
			ev.Tag = in
		}
		msg = msg[e+2:]
	}
	if strings.HasPrefix(msg, "[") { // a third bracket: no line the frameworks print
		return ev, false
	}
	ev.Kind = servingHead([]byte(msg))
	if ev.Kind == ServingNone {
		return ev, false
	}
	switch ev.Kind {
	case ServingRangeCompile:
		ev.Range, ev.Seconds = rangeOf(msg), secondsAfter(msg, " takes ")
	case ServingRangeCached:
		ev.Range = rangeOf(msg)
	case ServingRangeLoaded:
		ev.Range, ev.Seconds = rangeOf(msg), secondsAfter(msg, ", took ")
	case ServingShapeCompile:
		ev.Seconds = secondsAfter(msg, " takes ")
	case ServingAOTSaved:
		ev.Path = strings.TrimSpace(msg[len(sSavedAOT):])
	case ServingAOTLoaded:
		ev.Path = strings.TrimSpace(msg[len(sLoadAOT):])
	case ServingLoadFailure:
		rest := strings.TrimPrefix(msg[len(sAgain):], " from ")
		if i := strings.LastIndex(rest, ", reason:"); i >= 0 {
			ev.Path, ev.Reason = strings.TrimSpace(rest[:i]), strings.TrimSpace(rest[i+len(", reason:"):])
		} else {
			ev.Path = strings.TrimSpace(rest)
		}
	case ServingCompileTotal:
		if strings.HasPrefix(msg, string(sTook)) {
			ev.Seconds = secondsAfter(msg, string(sTook))
		} else {
			ev.Seconds = secondsAfter(msg, string(sTakes))
		}
	case ServingWarmupRun:
		ev.Seconds = secondsAfter(msg, string(sWarmupRun))
	case ServingJITMonitorOn:
		if i := strings.Index(msg, "mode="); i >= 0 {
			ev.Mode = strings.TrimRight(msg[i+len("mode="):], ". ")
		}
	case ServingJIT:
		lib, rest, _ := strings.Cut(msg, " JIT compilation during inference: ")
		ev.JIT = lib
		if i := strings.Index(rest, ". This causes"); i >= 0 {
			rest = rest[:i]
		}
		ev.Kernel = strings.TrimRight(strings.TrimSpace(rest), ".")
	case ServingCaptureBegin:
	case ServingCaptureSizes:
		ev.Sizes = strings.TrimSpace(msg[len(sCaptureNum):])
	case ServingCaptureEnd:
		ev.Seconds = secondsAfter(msg, "Time elapsed: ")
	}
	return ev, true
}

// rangeOf is the "(A, B)" after "compile range ".
func rangeOf(msg string) string {
	i := strings.Index(msg, "compile range (")
	if i < 0 {
		return ""
	}
	rest := msg[i+len("compile range "):]
	if j := strings.IndexByte(rest, ')'); j > 0 {
		return rest[:j+1]
	}
	return ""
}

// secondsAfter is the number of seconds after lead ("… takes 34.06 s"); -1 when none.
func secondsAfter(msg, lead string) float64 {
	i := strings.Index(msg, lead)
	if i < 0 {
		return -1
	}
	rest := msg[i+len(lead):]
	n := 0
	for n < len(rest) && (isDigit(rest[n]) || rest[n] == '.') {
		n++
	}
	if n == 0 || !strings.HasPrefix(strings.TrimLeft(rest[n:], " "), "s") {
		return -1
	}
	f, err := strconv.ParseFloat(strings.TrimRight(rest[:n], "."), 64)
	if err != nil {
		return -1
	}
	return f
}

func digits(s string) bool {
	_, ok := atoi([]byte(s))
	return ok
}

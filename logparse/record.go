package logparse

import (
	"fmt"
	"time"
)

// Kind is what a record is about.
type Kind uint8

// Record kinds.
const (
	KindOther              Kind = iota // anything else: log lines, user output, launcher messages
	KindGraphBreak                     // a graph-break record (full, duplicate, frame skip, Tensor.item() warning)
	KindRecompile                      // "Recompiling function …" with its guard failures
	KindLimitHit                       // "hit config.cache_size_limit|recompile_limit (N)"
	KindCudagraphSkip                  // "skipping cudagraphs due to …"
	KindCompileError                   // an uncaught torch._dynamo.exc.* / torch._inductor.exc.* exception, or one with Dynamo's compile-failure epilogue
	KindException                      // an exception no process died of by itself: an interrupt, torchrun's summary, a traceback cut before its exception, one the program caught and logged
	KindStack                          // a faulthandler thread-stack dump
	KindCompile                        // one frame compile (TORCH_TRACE compilation_metrics): time and graph size
	KindCudagraphPartition             // "Created N graph partitions: …" (Inductor 2.9+) with its partitions and their ops
	KindCudagraphRerecord              // "Re-recording function=F, reason=R" of CUDA-graph trees
	KindRuntimeError                   // an uncaught exception that is not a compile error: the process died of it
	KindWarning                        // a warning worth a finding (Python "file.py:N: UserWarning: …" or a W record)
	KindCache                          // one compile-cache lookup: FX graph, AOTAutograd or PGO hit / miss / bypass
	KindCudagraphRecording             // "Recording function=F, cuda_graph_id=N" of CUDA-graph trees (payload: Rerecord)
	KindShapeEnv                       // a line of the dynamic log about a compile's shapes: create_env, create_symbol, marking … as dynamic (shapes.go)
	KindDDPGraph                       // a message of the ddp_graphs log: DDPOptimizer's split of a graph, a submodule it compiles, the final graph (ddpgraphs.go)
	KindServing                        // a serving framework's compile line (vLLM, SGLang): Record.Serving reads it (serving.go)
)

var kindNames = [...]string{"other", "graph_break", "recompile", "limit_hit", "cudagraph_skip", "compile_error",
	"exception", "stack", "compile", "cudagraph_partition", "cudagraph_rerecord", "runtime_error", "warning", "cache",
	"cudagraph_recording", "shape_env", "ddp_graph", "serving"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Source says where a record came from.
type Source uint8

// Record sources.
const (
	FromText  Source = iota // TORCH_LOGS / stderr / stdout text
	FromTrace               // a TORCH_TRACE structured file
)

// Frame is one entry of a Python traceback.
type Frame struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Func string `json:"function,omitempty"`
	Code string `json:"code,omitempty"`
}

// BreakVariant distinguishes the shapes a graph-break record takes.
type BreakVariant uint8

// Graph-break variants.
const (
	BreakFull        BreakVariant = iota // the full record with its user traceback
	BreakDuplicate                       // "details suppressed" / "user stack suppressed due to duplicate graph break"
	BreakFrameSkip                       // the frame is skipped and runs eager
	BreakItemWarning                     // the W-level "Graph break from `Tensor.item()`" warning
	// BreakBuiltinWarning is Dynamo's once-per-builtin Python warning "Graph break due to unsupported builtin
	// time.time. …" (torch/_dynamo/variables/functions.py, warn_once): no site; the same break as the graph_breaks
	// record of that builtin (Builtin names it)
	BreakBuiltinWarning
)

var variantNames = [...]string{"full", "duplicate", "frame_skip", "item_warning", "builtin_warning"}

func (v BreakVariant) String() string {
	if int(v) < len(variantNames) {
		return variantNames[v]
	}
	return "unknown"
}

// GraphBreak is the payload of a KindGraphBreak record.
type GraphBreak struct {
	Variant     BreakVariant
	File        string   // break site
	Line        int      // break site
	Reason      string   // the reason as printed (2.6 "Unsupported: builtin: print …", 2.8+ gb_type line, 2.3–2.5 exception text)
	GBType      string   // 2.8+ gb_type
	GBID        string   // "GB0059" from the documentation link (2.9+)
	Explanation string   // 2.8+
	Hints       []string // 2.8+
	// DebugContext is the "Developer debug context: …" line (2.8+), trimmed: what Dynamo saw ("builtin print
	// [<class '…ConstantVariable'>]"); playbooks match on it.
	DebugContext string
	Frames       []Frame // user code traceback, outermost first
	UserFrame    Frame   // deepest frame outside torch/ and site-packages (zero when none)
	// Builtin is the unsupported builtin a break is about ("time.time": 2.6's "Graph break due to unsupported
	// builtin time.time." in a record's reason or in Dynamo's warning about it), "" for other breaks
	Builtin string
}

// GuardFailure is one failed guard of a recompile.
type GuardFailure struct {
	CompileID string `json:"compile_id,omitempty"` // the cache entry that rejected the call ("0/0"); empty before ≈2.5
	Guard     string `json:"guard"`
	Extra     string `json:"extra,omitempty"` // folded continuation lines (2.14 user stack), one string
}

// Recompile is the payload of a KindRecompile record.
type Recompile struct {
	Function string
	File     string
	Line     int // first line of the function
	Failures []GuardFailure
}

// LimitHit is the payload of a KindLimitHit record.
type LimitHit struct {
	Limit      string // "cache_size_limit", "recompile_limit", "accumulated_cache_size_limit", …
	Value      int
	Function   string
	File       string
	Line       int
	LastReason string
}

// CudagraphSkip is the payload of a KindCudagraphSkip record.
type CudagraphSkip struct {
	Reason string // without the (possibly doubled) "skipping cudagraphs due to" lead and the stack
	Frame  Frame  // the user frame of its "Found from" stack, zero when it names none
}

// Partitions is the payload of a KindCudagraphPartition record: how Inductor split one graph around what CUDA
// graphs cannot take, and, when the log shows them, the partitions and their ops.
type Partitions struct {
	Total, Cudagraphable, NonCudagraphable int
	Parts                                  []Partition
}

// Partition is one "Partition K: N nodes, …" of a Partitions record.
type Partition struct {
	Index, Nodes  int
	Cudagraphable bool
	Ops           []PartitionOp // the ops that kept a non-cudagraphable partition out, with their reasons
}

// PartitionOp is one "opN: reason=R, ir=I, fx=F" line and the node's stack after it.
type PartitionOp struct {
	Name, Reason, IR, FX string
	Frames               []Frame
	UserFrame            Frame // the deepest frame outside library code, zero when none
}

// ReasonCudagraphsOff is the partition reason of a compile that never asked for CUDA graphs: its whole graph is
// one "non-cudagraphable" partition, but nothing was split off a CUDA graph.
const ReasonCudagraphsOff = "partition includes all ops when cudagraphs is disabled"

// CudagraphsOff reports a record of a compile that did not ask for CUDA graphs (every op's reason says so).
func (p *Partitions) CudagraphsOff() bool {
	n := 0
	for _, part := range p.Parts {
		for _, op := range part.Ops {
			if op.Reason != ReasonCudagraphsOff {
				return false
			}
			n++
		}
	}
	return n > 0
}

// Rerecord is the payload of a KindCudagraphRerecord record (an existing recording of the function that did not
// match a call) and of a KindCudagraphRecording record (a recording: GraphID set, no Reason).
type Rerecord struct {
	Function string // "partition_0"
	Reason   string // "static input data pointer changed."
	Input    string // the input whose data pointer changed ("arg0_1"), when the record names it
	Detail   string // the lines after the head, joined
	GraphID  int    // cuda_graph_id of a recording; -1 when the line names none
}

// WarnTopic says what a warning is about.
type WarnTopic uint8

// Warning topics (docs: gpu-cuda-graphs-2.11.md §4–8); WarnOther is any other Python warning.
const (
	WarnOther           WarnTopic = iota
	WarnCudagraphSizes            // "CUDAGraph supports dynamic shapes by recording a new graph for each distinct input size…"
	WarnPendingBackward           // "Unable to hit fast path of CUDAGraphs because of pending, uninvoked backwards" (2.14 reworded)
	WarnTF32                      // "TensorFloat32 tensor cores for float32 matrix multiplication available but not enabled"
	WarnEmptyCUDAGraph            // "The CUDA Graph is empty…" (a manual capture that captured nothing)
)

var warnNames = [...]string{"other", "cudagraph_distinct_sizes", "cudagraph_pending_backward", "tf32_hint", "empty_cuda_graph"}

func (t WarnTopic) String() string {
	if int(t) < len(warnNames) {
		return warnNames[t]
	}
	return "unknown"
}

// Warning is the payload of a KindWarning record.
type Warning struct {
	Topic    WarnTopic
	Category string // the Python warning class ("UserWarning"); "" for a log record
	File     string // where a Python warning was raised
	Line     int
	Message  string
	Sizes    int // WarnCudagraphSizes: the distinct sizes observed
}

// CompileError is the payload of KindCompileError, KindRuntimeError and KindException records.
type CompileError struct {
	Class   string // fully qualified exception class of the final exception ("" when the input ends before it)
	Message string // its message (first lines)
	Inner   string // for BackendCompilerFailed: the inner error class (CppCompileError, …)
	Frame   Frame  // the user frame ("from user code:" or the deepest user frame), zero when unknown
	// Epilogue: the traceback carries Dynamo's compile-failure epilogue ("You can suppress this exception and fall
	// back to eager …"): raised while compiling, whatever its class.
	Epilogue bool
	// Interrupted: KeyboardInterrupt, SystemExit or torchelastic's SignalException: the process was stopped.
	Interrupted bool
	// Interrupt is the interrupt an exception of the chain before the final one was (KeyboardInterrupt, SystemExit,
	// SignalException): the final exception was raised while handling it or from it, so the process went down
	// because it was stopped (Interrupted is set too); "" when none was.
	Interrupt string
	// Summary: torchrun's ChildFailedError, which summarises a child's failure (the child's own error is the one).
	Summary bool
	// Caught: the program caught the exception, logged it (logger.exception: "ERROR:<logger>:…" over the
	// traceback) and went on (torch logged more after it, or another traceback followed): no process died of it.
	Caught bool
	// Suppressed: Dynamo caught it itself and logged "WON'T CONVERT <fn> <file> line N due to:" (suppress_errors,
	// or a recompile-limit hit): the frame did not compile and runs eager; Caught is set too (wontconvert.go).
	Suppressed bool
	// RootCauseRank is, for a Summary, the rank its "Root Cause (first observed failure)" names; -1 when none.
	RootCauseRank int
	// Children are, for a Summary, the failed ranks its table lists (ChildFailures)
	Children []ChildFailure
	// GlooSize is, for gloo's abort on its size check (a KindOther record: gloo.go), the bytes that differ
	GlooSize *GlooSize
	Frames   []Frame // the traceback's frames, outermost first (of the last exception of a chain)
	// Cause is the exception the final one was raised from ("The above exception was the direct cause of the
	// following exception"), its class without the module and its message's first line ("DistStoreError:
	// use_libuv was requested …"); "" when the final exception has no direct cause in the input.
	Cause string
}

// FrameCompile is the payload of a KindCompile record.
type FrameCompile struct {
	Function string
	File     string
	Line     int
	Seconds  float64      // entire_frame_compile_time_s (0 when not given)
	GraphOps int          // graph_op_count; -1 when not given
	Failed   bool         // fail_type was set
	Stage    CompileStage // frame compile, lazy backward compile, or run-time work charged to a compile
	Times    CompileTimes // the phase spans the record gives (compile.go)
}

// Record is one complete log record.
type Record struct {
	// the fields of a byte or two are side by side (no padding between them): a record is 352 bytes, the
	// allocator's 352-byte class, not 384 (counting parses ~90,000 records of bench/many.sh): a field more crosses it
	Kind      Kind
	Source    Source
	Level     byte   // 'V','I','W','E','C' (or 'D' for DEBUG in other forms); 0 unknown
	Input     string // input name (file path, "-", run stream)
	Stream    string // "stdout", "stderr" or ""
	Rank      int    // global rank from [rankN]: (or srun label, trace envelope, file name); -1 unknown
	LocalRank int    // torchrun --tee [defaultN]: local rank, -1 when absent
	PID       int    // thread id (≤≈2.4) or process id from the glog prefix; 0 unknown
	Time      time.Time
	Emitter   string // emitting source "torch/_dynamo/guards.py:2791" or logger name
	CompileID CompileID
	Artifact  string // "graph_breaks", "recompiles", … without the "__"
	FirstLine int    // 1-based input line numbers
	LastLine  int
	Lines     []string // message lines with the prefix stripped (may be nil for KindOther when text is not kept)
	// Cut says why the record is visibly incomplete (pasted text: its header or its end was not pasted), empty
	// for a whole record; a record of guard failures without their header is KindOther with Cut as evidence.
	Cut       string
	Era       Era  // the torch versions whose format this record shows
	Truncated bool // a line was longer than the limit and was cut

	plain               bool  // of no known head: plain output, which counting (SkipOther) does not build
	sameBreak           int32 // SameBreak
	partFirst, partLast int   // parallel parsing: parts holding FirstLine and LastLine (line numbers fixed on join)
	closedAt            int   // parallel parsing: when the record ended (2 × Parser.seq of the part then read, +1 if late)

	Break     *GraphBreak
	Recompile *Recompile
	Limit     *LimitHit
	Skip      *CudagraphSkip
	Error     *CompileError
	Compile   *FrameCompile
	Parts     *Partitions
	Rerecord  *Rerecord
	Warning   *Warning
	Cache     *CacheEvent
	Shape     *ShapeEvent
	DDP       *DDPGraph
	StackAt   *Frame     // KindStack: the program's frame the dump shows (StackFrame); nil for library code alone
	Dump      *StackDump // KindStack: each process's main thread (StackMains); nil for other kinds
}

// StackDump is the payload of a KindStack record: the main thread of each process of the program it shows.
type StackDump struct {
	Mains       []StackThread
	Interleaved bool // processes wrote at the same moment and their lines mix: Mains is empty
	Fatal       bool // "Fatal Python error: …" heads it: the dump of a process that crashed (a segfault), not one asked for
}

// Plain reports a record of no known head (plain output, not a torch record): the records a parse that only
// counts (Options.SkipOther) never builds.
func (r *Record) Plain() bool { return r.plain }

// SameBreak is nonzero on graph-break records whose text a load's parse remembered (counting, under torchrun):
// records with the same SameBreak had the same text, rank prefix and compile id aside, so their payloads are
// equal (each its own copy); no two texts share one in a process. 0: nothing is known.
func (r *Record) SameBreak() int32 { return r.sameBreak }

// Text joins the message lines.
func (r *Record) Text() string {
	n := 0
	for _, l := range r.Lines {
		n += len(l) + 1
	}
	b := make([]byte, 0, n)
	for i, l := range r.Lines {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, l...)
	}
	return string(b)
}

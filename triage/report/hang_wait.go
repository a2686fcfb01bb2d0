package report

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// Where a process waits, from the frames a stack dump or a traceback shows (testdata/dist-hangs: gloo, torch 2.14.1
// and 2.6): the collective of torch.distributed it sits in, an op of a compiled region, or a wait outside
// collectives, and the innermost frame of the program.

// WaitKind says what a process waits in.
type WaitKind uint8

// Wait kinds.
const (
	WaitUnknown    WaitKind = iota // the frames show no wait: native code called from the program's line, or busy in it
	WaitCollective                 // a collective of torch.distributed (all_reduce, barrier, recv, work.wait(), a functional collective's wait)
	WaitCompiled                   // an op called from a compiled region's generated code (Inductor's call): which op the dump does not say
	WaitOther                      // outside collectives: torch.cuda.synchronize, the data loader, a lock, a queue, I/O, a sleep
	WaitCompiling                  // torch.compile is compiling (Dynamo's convert_frame, Inductor's compile_fx): busy, not waiting
)

// procWait is where one process was, as one piece of evidence shows it.
type procWait struct {
	Op     string // "all_reduce", "barrier", "wait_tensor", "compiled_region", "cuda_synchronize", "data_loader", "lock", …; "" not known
	Kind   WaitKind
	User   logparse.Frame // the innermost frame of the program; zero when none
	Region string         // a functional collective's compiled region: the program's function whose compiled code runs it
}

// c10dOps are the functions of torch/distributed/distributed_c10d.py (and _functional_collectives.py) a rank waits in.
var c10dCode = regexp.MustCompile(`\b(all_reduce|all_gather|all_gather_into_tensor|all_gather_object|reduce_scatter|` +
	`reduce_scatter_tensor|broadcast|broadcast_object_list|barrier|monitored_barrier|reduce|gather|gather_object|scatter|` +
	`scatter_object_list|all_to_all|all_to_all_single|send|recv|isend|irecv|batch_isend_irecv|wait_tensor)\(`)

// functionalCode reads a functional collective of a compiled region's generated line:
// "torch.ops._c10d_functional.wait_tensor.default(buf1)", "torch.ops._c10d_functional.all_reduce_.default(buf1, 'sum', '0')".
var functionalCode = regexp.MustCompile(`_c10d_functional\.([a-z_]+?)_?\.default\(`)

// waitOf reads where a thread waits from its frames, innermost first.
func waitOf(frames []logparse.Frame) procWait {
	var w procWait
	userAt := -1
	for i, f := range frames {
		if !logparse.IsLibraryFile(f.File) {
			w.User, userAt = f, i
			break
		}
	}
	for _, f := range frames {
		if compilingFrame(f) {
			w.Op, w.Kind = "compiling", WaitCompiling
			return w
		}
	}
	lib := frames
	if userAt >= 0 {
		lib = frames[:userAt]
	}
	// a compiled region: Inductor's generated code (its call) or its runner, under the program's frame
	for _, f := range frames {
		if isGeneratedCode(f.File) || strings.HasSuffix(f.File, "torch/_inductor/output_code.py") {
			w.Op, w.Kind, w.Region = "compiled_region", WaitCompiled, w.User.Func
			for _, g := range frames {
				if m := functionalCode.FindStringSubmatch(g.Code); m != nil && isGeneratedCode(g.File) {
					w.Op, w.Kind = m[1], WaitCollective
					break
				}
			}
			return w
		}
	}
	// the outermost frame of torch.distributed's collectives above the program: the API it called
	for i := len(lib) - 1; i >= 0; i-- {
		f := lib[i]
		if strings.HasSuffix(f.File, "torch/distributed/distributed_c10d.py") || strings.HasSuffix(f.File, "torch/distributed/_functional_collectives.py") {
			w.Op, w.Kind = f.Func, WaitCollective
			return w
		}
	}
	// the data loader waits in a queue on a lock: what the program called is the data loader
	if slices.ContainsFunc(lib, func(f logparse.Frame) bool { return strings.Contains(f.File, "torch/utils/data/") }) {
		w.Op, w.Kind = "data_loader", WaitOther
		return w
	}
	for _, f := range lib {
		if op := otherWait(f); op != "" {
			w.Op, w.Kind = op, WaitOther
			return w
		}
	}
	// no library frame says it (a C++ call, a traceback through a wrapper): the program's own line, when shown
	if c := w.User.Code; c != "" {
		switch {
		case strings.Contains(c, ".wait()"):
			w.Op, w.Kind = "wait", WaitCollective
		case strings.Contains(c, "cuda.synchronize("):
			w.Op, w.Kind = "cuda_synchronize", WaitOther
		case strings.Contains(c, "time.sleep("):
			w.Op, w.Kind = "sleep", WaitOther
		default:
			if m := c10dCode.FindStringSubmatch(c); m != nil && (strings.Contains(c, "dist.") || strings.Contains(c, "distributed.")) {
				w.Op, w.Kind = m[1], WaitCollective
			}
		}
	}
	return w
}

// compilingFrame: a frame only a compile runs (Dynamo converting a frame, Inductor compiling a graph or waiting for
// its compile workers); running compiled code goes through eval_frame and output_code, never these.
func compilingFrame(f logparse.Frame) bool {
	return strings.HasSuffix(f.File, "torch/_dynamo/convert_frame.py") || strings.HasSuffix(f.File, "torch/_inductor/compile_fx.py") ||
		strings.HasSuffix(f.File, "torch/_inductor/async_compile.py")
}

// isGeneratedCode: Inductor's generated module (<cache>/xx/c<hash>.py).
func isGeneratedCode(file string) bool { return logparse.IsInductorCode(file) }

// otherWait names a wait outside collectives by the library frame it sits in, "" for none.
func otherWait(f logparse.Frame) string {
	file := f.File
	switch {
	case strings.HasSuffix(file, "torch/cuda/__init__.py") && f.Func == "synchronize", strings.HasSuffix(file, "torch/cuda/streams.py") && f.Func == "synchronize":
		return "cuda_synchronize"
	case strings.Contains(file, "torch/utils/data/"):
		return "data_loader"
	case strings.HasSuffix(file, "/threading.py") && (f.Func == "wait" || f.Func == "acquire" || f.Func == "join" || f.Func == "_wait_for_tstate_lock"):
		return "lock"
	case strings.HasSuffix(file, "/queue.py"), strings.Contains(file, "/multiprocessing/queues.py"):
		return "queue"
	case strings.HasSuffix(file, "/selectors.py"), strings.HasSuffix(file, "/socket.py"), strings.HasSuffix(file, "/ssl.py"),
		strings.Contains(file, "/multiprocessing/connection.py"):
		return "io"
	case strings.HasSuffix(file, "/subprocess.py"):
		return "subprocess"
	}
	return ""
}

// What torch's own errors say of a collective (gloo, torch.distributed; testdata/dist-hangs).
var (
	glooTimeout     = regexp.MustCompile(`Timed out waiting (\d+)ms for \w+ operation to complete`)
	monitoredFailed = regexp.MustCompile(`Rank (\d+) failed to pass monitoredBarrier in (\d+) ms`)
	// DETAIL: "Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=0, OpType=ALLREDUCE, TensorShape=[4, 8], …"
	// (2.14 and 2.6; against a barrier "CollectiveFingerPrint(SequenceNumber=0OpType=BARRIER)")
	detailRank = regexp.MustCompile(`Rank (\d+) is running collective: CollectiveFingerPrint\(SequenceNumber=\d+,? ?OpType=([A-Z_]+)(?:, TensorShape=(\[[0-9, ]*\]))?`)
)

// DetailMismatchText starts TORCH_DISTRIBUTED_DEBUG=DETAIL's error for collectives that differ between ranks.
const DetailMismatchText = "Detected mismatch between collectives on ranks"

// timeoutMs is how long the error says its collective waited before it gave up (gloo's "Timed out waiting
// 15000ms", monitored_barrier's "in 10000 ms"), 0 when it is no timeout.
func timeoutMs(msg string) int {
	if m := glooTimeout.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	if m := monitoredFailed.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[2])
		return n
	}
	return 0
}

// detailOps reads DETAIL's mismatch error: each "Rank N is running collective" it names, with the op (lower case, as
// the API names it) and the tensor shape; the first is the raising rank's own.
func detailOps(msg string) []RankOp {
	var out []RankOp
	for _, m := range detailRank.FindAllStringSubmatch(msg, -1) {
		r, _ := strconv.Atoi(m[1])
		out = append(out, RankOp{Rank: r, Op: detailOpName(m[2]), Shape: m[3]})
	}
	return out
}

// detailOpName is DETAIL's OpType as the collective's function is named: ALLREDUCE → all_reduce.
func detailOpName(op string) string {
	switch op {
	case "ALLREDUCE":
		return "all_reduce"
	case "ALLGATHER":
		return "all_gather"
	case "ALLGATHER_COALESCED":
		return "all_gather_coalesced"
	case "REDUCE_SCATTER":
		return "reduce_scatter"
	case "ALLTOALL":
		return "all_to_all"
	case "ALLTOALL_BASE":
		return "all_to_all_single"
	}
	return strings.ToLower(op)
}

// detailDiffer is DETAIL's "Collectives differ in the following aspects: …" words, run-together words kept as torch
// prints them ("Op type: ALLREDUCEvs BROADCAST").
func detailDiffer(msg string) string {
	const head = "Collectives differ in the following aspects:"
	i := strings.Index(msg, head)
	if i < 0 {
		return ""
	}
	return strings.TrimSpace(strings.Join(strings.Fields(FirstLine(msg[i+len(head):])), " "))
}

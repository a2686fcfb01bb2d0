package report

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/text"
)

// FirstFailure is the failure the rest followed from, when the inputs can tell: in a torchrun job one rank's
// error makes the others fail (NCCL aborts, SIGTERM), and torchrun's ChildFailedError is only a summary.
type FirstFailure struct {
	ErrorSummary
	// By says how it was picked: "root_cause" (torchrun's "Root Cause (first observed failure)" names the
	// rank), "first_in_log" (the earliest fatal error in the one input that holds them), or "unknown_order"
	// (several inputs hold errors and nothing says which came first: this is only the first one read).
	By string `json:"by"`
	// Of is how many processes died of an error in all (this one among them).
	Of int `json:"of"`
}

// failureLog keeps the fatal errors (compile and runtime) in the order they arrived and what torchrun's summary
// named.
type failureLog struct {
	events    []ErrorSummary
	rootCause int // the rank torchrun's first ChildFailedError summary names as root cause; -1 when none
}

// noteSummary takes the root-cause rank of torchrun's ChildFailedError summary (an exception record).
func (l *failureLog) noteSummary(r *logparse.Record) {
	if r.Error != nil && r.Error.Summary && l.rootCause < 0 {
		l.rootCause = r.Error.RootCauseRank
	}
}

// first picks the first failure; nil when no process died of an error. A rank's own failure (an exception, a
// collective's timeout, a death by a signal torchrun's table shows) comes before a collective that lost its peer
// ("Connection closed by peer": the consequence, whatever torchrun calls the root cause: it names the rank it saw
// exit first); torchrun's root cause decides among own failures; where every failure is DETAIL's mismatch check,
// each rank raised it of itself and none followed from another (testdata/dist-hangs, its expected.json).
func (l *failureLog) first(children []logparse.ChildFailure) *FirstFailure {
	deaths := signalDeaths(children, l.events)
	if len(l.events) == 0 && len(deaths) == 0 {
		return nil
	}
	of := len(l.events) + len(deaths)
	if len(deaths) == 0 && !slices.ContainsFunc(l.events, func(e ErrorSummary) bool { return !strings.Contains(e.Message, DetailMismatchText) }) {
		return nil // DETAIL's check raised on every rank that failed
	}
	own := slices.DeleteFunc(slices.Clone(l.events), peerGone)
	if l.rootCause >= 0 {
		for _, e := range append(own, deaths...) {
			if e.Rank == l.rootCause {
				return &FirstFailure{ErrorSummary: one(e), By: "root_cause", Of: of}
			}
		}
	}
	inputs := map[string]bool{}
	for _, e := range l.events {
		inputs[e.Input] = true
	}
	by := "first_in_log"
	if len(inputs) > 1 {
		by = "unknown_order"
	}
	switch {
	case len(own) > 0:
		return &FirstFailure{ErrorSummary: one(own[0]), By: by, Of: of}
	case len(deaths) > 0: // torchrun's table lists them in no order of time but its root cause's
		return &FirstFailure{ErrorSummary: one(deaths[0]), By: "child_table", Of: of}
	}
	if l.rootCause >= 0 {
		for _, e := range l.events {
			if e.Rank == l.rootCause {
				return &FirstFailure{ErrorSummary: one(e), By: "root_cause", Of: of}
			}
		}
	}
	return &FirstFailure{ErrorSummary: one(l.events[0]), By: by, Of: of}
}

// peerGone: the error of a collective whose peer went away (gloo's words): another process failed first.
func peerGone(e ErrorSummary) bool {
	return slices.ContainsFunc(peerGoneTexts, func(t string) bool { return strings.Contains(e.Message, t) })
}

// signalDeaths are the ranks torchrun's table shows killed by a signal it did not send itself (SIGKILL, SIGABRT,
// SIGSEGV: not the SIGTERM or SIGINT it sends the others when one fails) and that printed no error of their own: a
// rank that died without a traceback (killed, or aborted in C++), as an error for the first failure.
func signalDeaths(children []logparse.ChildFailure, events []ErrorSummary) []ErrorSummary {
	var out []ErrorSummary
	for _, c := range children {
		if c.Rank < 0 || c.Signal == "" || c.Signal == "SIGTERM" || c.Signal == "SIGINT" ||
			slices.ContainsFunc(events, func(e ErrorSummary) bool { return e.Rank == c.Rank }) {
			continue
		}
		msg := fmt.Sprintf("exit code %d (pid %d)", c.ExitCode, c.PID)
		if strings.HasPrefix(c.Traceback, "Signal ") {
			msg = c.Traceback
		}
		out = append(out, ErrorSummary{Class: c.Signal, Message: msg, Rank: c.Rank, Input: "", Records: 1, Ranks: []int{c.Rank}})
	}
	return out
}

// one makes an event a group of one.
func one(e ErrorSummary) ErrorSummary {
	e.Records, e.Ranks = 1, []int{}
	if e.Rank >= 0 {
		e.Ranks = []int{e.Rank}
	}
	return e
}

// Text words the first failure in one line: who, what, and how that was known.
func (f *FirstFailure) Text() string {
	if f == nil {
		return ""
	}
	what := f.Class
	if m := strings.TrimSpace(f.Message); m != "" {
		what += ": " + text.OneLine(ErrorGist(m), text.TitleMax)
	}
	if f.Cause != "" {
		what += " (caused by " + text.OneLine(f.Cause, text.TitleMax) + ")"
	}
	if f.TorchLogs { // the place is the program's `import torch`; the cause is the setting
		what += " (raised by torch reading TORCH_LOGS at import: the setting, not the program)"
	}
	if f.File != "" {
		what += fmt.Sprintf(" (%s:%d)", f.File, f.Line)
	}
	who := "the process"
	if f.Of > 1 {
		who = "a process"
	}
	if f.Rank >= 0 {
		who = fmt.Sprintf("rank %d", f.Rank)
	}
	switch {
	case f.Of == 1:
		return who + " failed: " + what
	case f.By == "root_cause":
		return who + " failed first (torchrun's root cause): " + what
	case f.By == "first_in_log":
		return who + " failed first in the log: " + what
	}
	return who + " failed (several logs hold errors; which came first is not known): " + what
}

// cppCodegen is a C++ compiler's error inside a generated source file ("….cpp:16:33: error: …"), as logparse keeps
// it under a CppCompileError's message; a missing header is a "fatal error" and stays the toolchain's.
var cppCodegen = regexp.MustCompile(`\.cpp:\d+:\d+: error: `)

// ErrorCause names what a fatal error means, from its class, inner error and message: the C++ or
// Triton/ptxas toolchain, the recompile limit under fullgraph, Unsupported under fullgraph, a backend failure,
// a rendezvous/port error from the launcher, an invalid TORCH_LOGS; "" when none applies.
func ErrorCause(class, inner, msg string) string {
	all := class + "\n" + inner + "\n" + msg
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(all, s) {
				return true
			}
		}
		return false
	}
	switch {
	case has("use_libuv was requested"):
		return "torch built without libuv (rendezvous: USE_LIBUV=0)"
	case has("DistNetworkError", "Address already in use", "errno: 98", "EADDRINUSE", "failed to bind"):
		return "rendezvous/port error from the launcher"
	case has("RendezvousConnectionError"):
		return "rendezvous error from the launcher"
	case has("Invalid log settings"):
		return "invalid TORCH_LOGS"
	case has("FailOnRecompileLimitHit", "FailOnCacheLimitHit", "RecompileLimitExceeded"):
		// 2.6's fail_on_cache_limit_hit, 2.14's fail_on_recompile_limit_hit; fullgraph=True raises it at the limit too
		return "the recompile limit made fatal (fail_on_recompile_limit_hit, or fullgraph=True)"
	case has("stance is 'fail_on_recompile'"):
		return `a recompile made fatal by set_stance("fail_on_recompile")`
	case strings.HasSuffix(class, "RecompileError"):
		return "a recompile made fatal by torch._dynamo.config.error_on_recompile"
	case has("Guard check failed: "):
		return "a guard crashed while torch evaluated it (a torch bug, not a recompile)"
	case has("There was no fake impl registered for", "no fake impl registered", "Please use `register_fake`"):
		return "custom op without a fake kernel (register_fake)"
	case has("DefaultCPUAllocator: can't allocate memory"):
		return cpuAllocCause(all)
	case has("CUDA out of memory. Tried to allocate"):
		return cudaOOMCause(all)
	case has("Could not guard on data-dependent expression", "Could not extract specialized integer from data-dependent",
		"GuardOnDataDependentSymNode"):
		return "data-dependent expression"
	case has("ptxas", "PTXASError") || sm100.MatchString(all):
		return "Triton/ptxas toolchain"
	case has("op.preamble.length <= op.nbytes"):
		// gloo's size check on a receive: the peer sent more bytes than this rank's tensor holds
		return "collective mismatch: the ranks passed different sizes to one collective (gloo's size check)"
	case has("CppCompileError") && cppCodegen.MatchString(all):
		// the compiler ran and refused the kernel Inductor generated: code generation, not the toolchain
		return "Inductor generated C++ that does not compile"
	case has("CppCompileError", "C++ compile error", "InvalidCxxCompiler", "No module named 'setuptools"):
		return "C++ toolchain"
	case strings.HasSuffix(class, "exc.Unsupported"):
		// what raises an uncaught Unsupported: fullgraph=True, or error_on_graph_break (2.8+): either, not known which
		return "graph break made an error (fullgraph=True or error_on_graph_break)"
	case strings.HasSuffix(class, "BackendCompilerFailed") || strings.HasSuffix(class, "InductorError") ||
		strings.HasSuffix(class, "LoweringException"):
		return "backend failure"
	case strings.Contains(class, "InternalTorchDynamoError") || (class == "AssertionError" && has("torch/_dynamo", "SpeculationLog")):
		return "Dynamo internal error"
	}
	return ""
}

// errorGist is the part of an error message that says what went wrong, in one line, for titles and the first
// failure: the headline, except where the first line is only a preamble. NCCL's DistBackendError opens with
// where it failed ("NCCL error in: …NCCLUtils.cpp:93, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL
// version …") and says why under "Last error:" ("Duplicate GPU detected : rank 0 and rank 1 both on CUDA device
// 60"); Triton's CompilationError opens with the place ("at 3:25:"), then the kernel's source and a caret, and
// says why on its last line.
func ErrorGist(msg string) string {
	lines := strings.Split(strings.TrimRight(msg, "\n "), "\n")
	for i, l := range lines[:len(lines)-1] {
		if strings.TrimSpace(l) == "Last error:" {
			if why := text.FlatLine(lines[i+1]); why != "" {
				return why
			}
		}
	}
	head := text.FlatLine(Headline(msg))
	if tritonAt.MatchString(head) && len(lines) > 1 {
		if why := text.FlatLine(lines[len(lines)-1]); why != "" && why != "^" {
			return head + " " + why
		}
	}
	return head
}

var (
	sm100   = regexp.MustCompile(`sm_[0-9]+a\b`)
	GbInMsg = regexp.MustCompile(`/gb/gb(\d+)\.html`)
)

// headline is the line of an error message that says what went wrong: the first, or for "backend='inductor'
// raised:" the inner error's line.
func Headline(msg string) string {
	first := FirstLine(msg)
	if strings.HasSuffix(strings.TrimSpace(first), "raised:") {
		if rest := strings.TrimSpace(strings.TrimPrefix(msg, first)); rest != "" {
			return FirstLine(rest)
		}
	}
	return first
}

var tritonAt = regexp.MustCompile(`^CompilationError: at \d+:\d+:$`)

func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

var (
	cpuAlloc  = regexp.MustCompile(`you tried to allocate (\d+) bytes`)
	cudaAsked = regexp.MustCompile(`Tried to allocate ([\d.]+) (B|KiB|MiB|GiB|TiB|PiB)\b`)
	cudaTotal = regexp.MustCompile(`total capacity of ([\d.]+) (B|KiB|MiB|GiB|TiB|PiB)\b`)
)

// cpuAllocCause words a CPU allocation that failed by its size: one far past any host's memory (over 4 TiB) is a
// size computed wrong — a guess from the size, said as one.
func cpuAllocCause(msg string) string {
	m := cpuAlloc.FindStringSubmatch(msg)
	if m == nil {
		return "out of CPU memory"
	}
	n, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return "out of CPU memory"
	}
	if n > 4*(1<<40) {
		return "an absurd CPU allocation (" + byteSize(n) + " asked: far past any host's memory, a size computed wrong — a guess from the size)"
	}
	return "out of CPU memory (" + byteSize(n) + " asked)"
}

// cudaOOMCause words a CUDA OOM whose request is more than the whole GPU holds: no setting helps, the size is wrong
// or the batch too large.
func cudaOOMCause(msg string) string {
	a, t := cudaAsked.FindStringSubmatch(msg), cudaTotal.FindStringSubmatch(msg)
	if a == nil || t == nil {
		return ""
	}
	asked, total := unitBytes(a[1], a[2]), unitBytes(t[1], t[2])
	if asked > total && total > 0 {
		return "a CUDA allocation larger than the whole GPU (" + a[1] + " " + a[2] + " asked, " + t[1] + " " + t[2] +
			" total): a size bug or a too-large batch, no setting helps"
	}
	return ""
}

func unitBytes(v, unit string) float64 {
	n, _ := strconv.ParseFloat(v, 64)
	for _, u := range []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"} {
		if u == unit {
			return n
		}
		n *= 1024
	}
	return n
}

// byteSize is n bytes in binary units, one decimal: "58.2 TiB".
func byteSize(n float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	return strconv.FormatFloat(n, 'f', 1, 64) + " " + units[i]
}

package logparse

import (
	"slices"
	"strconv"
	"strings"
)

// classify sets the record's kind and payload from its lines.
func classify(b *builder) {
	r := b.rec
	switch b.head {
	case headBreak:
		r.Kind, r.Break = KindGraphBreak, ParseBreak(r.Lines)
		if g := r.Break; (g.GBType == "" || g.GBType == g.Reason) && strings.HasPrefix(g.Reason, "Encountered graph break when attempting to trace") &&
			strings.HasSuffix(g.Reason, ":") {
			// 2.11+ prints the break's gb_type and explanation under this line: the input ends (or was cut) before them
			r.Cut = "a graph-break record cut after its reason line"
		}
		if len(r.Lines) > 0 && !strings.HasPrefix(r.Lines[0], "Graph break") {
			r.Cut = "a graph-break record without its header"
			if r.Break.File == "" { // a fragment: its reason, no user frame
				r.Cut = "a graph-break record without its header or user frame"
			}
		}
	case headRecompile:
		r.Kind, r.Recompile = KindRecompile, parseRecompile(r.Lines)
		if r.Recompile.Function == "" {
			r.Cut = "a `Recompiling function` header cut before its function and file"
		}
	case headGuards:
		r.Cut = guardEvidence(r.Lines)
	case headLimit:
		r.Kind, r.Limit = KindLimitHit, parseLimit(r.Lines)
	case headTraceback:
		if e, ok := glooAbort(r.Lines); ok && b.flavor == tbCpp {
			r.Error = e // gloo's abort: KindOther, no Python error of a process (gloo.go)
			break
		}
		r.Error = parseException(normalizeTraceback(r.Lines, b.flavor))
		if b.flavor == tbCpp {
			r.Error.Frames = cppFrames(r.Lines)
		}
		r.Kind = exceptionKind(r.Error)
		r.Error.RootCauseRank = -1
		if r.Error.Summary {
			r.Error.RootCauseRank = rootCauseRank(r.Lines)
			r.Error.Children = ChildFailures(r.Lines)
		}
		switch {
		case r.Error.Class == "":
			r.Cut = "a traceback cut before its exception line"
		case b.flavor == tbHeadless:
			r.Cut = CutBareException
		}
		settleCaught(b)
	case headStack:
		r.Kind = KindStack
		if f, ok := StackFrame(r.Lines); ok {
			r.StackAt = &f
		}
		mains, interleaved := StackMains(r.Lines)
		r.Dump = &StackDump{Mains: mains, Interleaved: interleaved, Fatal: len(r.Lines) > 0 && strings.HasPrefix(r.Lines[0], "Fatal Python error")}
	case headPartition:
		r.Kind, r.Parts = KindCudagraphPartition, parsePartitions(r.Lines)
	case headRerecord:
		r.Kind, r.Rerecord = KindCudagraphRerecord, parseRerecord(r.Lines, &r.CompileID)
	case headRecording:
		r.Kind, r.Rerecord = KindCudagraphRecording, parseRecording(r.Lines, &r.CompileID)
	case headWarning:
		r.Kind, r.Warning = KindWarning, parseWarning(r.Lines)
		if name := unsupportedBuiltin(r.Warning.Message); name != "" && strings.Contains(r.Warning.File, "torch/_dynamo/") {
			r.Kind, r.Warning = KindGraphBreak, nil
			r.Break = &GraphBreak{Variant: BreakBuiltinWarning, Reason: "unsupported builtin " + name, Builtin: name}
		}
	case headShape:
		classifyShape(b)
	case headWontConv:
		// a recompile-limit hit's own WON'T CONVERT (its limit record says it) is no error of its own
		if e := parseWontConvert(r.Lines); !e.LimitHit() {
			r.Kind, r.Error = KindException, e
		}
	case headDDP:
		if g, ok := parseDDPGraph(r.Lines); ok {
			r.Kind, r.DDP = KindDDPGraph, g
		}
	case headServing:
		if len(r.Lines) > 0 {
			if _, ok := ParseServing(r.Lines[0]); ok {
				r.Kind = KindServing
			}
		}
	case headCache:
		if len(r.Lines) > 0 {
			if ev, ok := parseCacheLine(r.Lines[0]); ok {
				r.Kind, r.Cache = KindCache, ev
			}
		}
	}
	if r.Kind == KindOther || r.Kind == KindException {
		msg := b.skip
		if msg == "" {
			for _, l := range r.Lines {
				if i := strings.Index(l, "skipping cudagraph"); i >= 0 {
					msg = l[i:]
					break
				}
			}
		}
		if msg != "" && r.Kind == KindOther {
			r.Kind, r.Skip = KindCudagraphSkip, parseSkip(msg, r.Lines)
		}
	}
	r.Era = eraEvidence(b)
}

// IsCompileErrorClass reports a torch._dynamo or torch._inductor exception class: what makes an exception a
// compile error (KindCompileError).
func IsCompileErrorClass(c string) bool {
	return strings.HasPrefix(c, "torch._dynamo.exc.") || strings.HasPrefix(c, "torch._inductor.exc.")
}

// FromCompile reports an exception torch.compile raised: a torch._dynamo / torch._inductor exception, or one with
// Dynamo's compile-failure epilogue (what makes an uncaught one a compile error). Caught, it still means the frame
// did not compile.
func (e *CompileError) FromCompile() bool { return IsCompileErrorClass(e.Class) || e.Epilogue }

// exceptionKind classifies an uncaught exception by the last exception of its chain (fixtures/README.md): a
// compile error by its class or Dynamo's compile-failure epilogue; a runtime error when the process died of it;
// otherwise (an interrupt, torchrun's summary of a child's failure, a traceback cut before its exception line) an
// exception no process died of by itself.
func exceptionKind(e *CompileError) Kind {
	// (IPython names the class without its module)
	switch {
	// stopped, or went down while handling the stop (an error raised in the program's handler, or a compile
	// failure whose inner error is the interrupt)
	case interruptClass(e.Class) || e.Interrupt != "" || e.Inner != "" && interruptClass(e.Inner):
		e.Interrupted = true
	case e.Class[strings.LastIndexByte(e.Class, '.')+1:] == "ChildFailedError":
		e.Summary = true
	}
	switch {
	case e.Interrupted:
		return KindException
	case e.FromCompile():
		return KindCompileError
	case e.Class == "" || e.Summary:
		return KindException
	}
	return KindRuntimeError
}

// parseFrameLine reads `  File "x.py", line 12, in f` (also with a leading "- " as in 2.14 guard stacks).
func parseFrameLine(l string) (Frame, bool) {
	t := strings.TrimLeft(l, " \t-")
	if !strings.HasPrefix(t, `File "`) {
		return Frame{}, false
	}
	t = t[len(`File "`):]
	q := strings.Index(t, `", line `)
	if q < 0 {
		return Frame{}, false
	}
	f := Frame{File: t[:q]}
	rest := t[q+len(`", line `):]
	end := strings.IndexAny(rest, ", ")
	if end < 0 {
		end = len(rest)
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil {
		return Frame{}, false
	}
	f.Line = n
	if i := strings.Index(rest, " in "); i >= 0 {
		f.Func = strings.TrimSpace(rest[i+4:])
	}
	return f, true
}

// parseFrames collects traceback frames from lines, attaching each frame's code line.
func parseFrames(lines []string) []Frame {
	var stack [16]Frame // most stacks are short: built here, then copied once at their size
	out := stack[:0]
	for i := 0; i < len(lines); i++ {
		f, ok := parseFrameLine(lines[i])
		if !ok {
			continue
		}
		if i+1 < len(lines) {
			c := strings.TrimSpace(lines[i+1])
			if c != "" && !strings.HasPrefix(c, `File "`) && !isMarkerLine(c) && strings.HasPrefix(lines[i+1], "    ") {
				f.Code = c
				i++
			}
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil
	}
	return slices.Clone(out)
}

// isMarkerLine reports Python 3.11+ "~~~^^^" position markers.
func isMarkerLine(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c != '~' && c != '^' && c != ' ' {
			return false
		}
	}
	return true
}

// IsLibraryFile reports whether a path belongs to torch, an installed package, the Python standard library or
// torchtriage's own probe rather than to the user's code.
func IsLibraryFile(path string) bool {
	p := strings.ReplaceAll(path, `\`, "/")
	switch {
	case isToolProbe(p):
		return true
	case strings.Contains(p, "site-packages/"), strings.Contains(p, "dist-packages/"):
		return true
	case strings.HasPrefix(p, "torch/"), strings.Contains(p, "/torch/_"), strings.Contains(p, "/torch/nn/"),
		strings.Contains(p, "/torch/distributed/"), strings.Contains(p, "/torch/utils/"):
		return true
	case strings.HasPrefix(p, "<frozen"), strings.Contains(p, "/lib/python3") && !strings.Contains(p, "packages/"):
		return true
	}
	return isInductorCode(p)
}

// isToolProbe reports the import hook torchtriage installs in a run: <run dir "NNNN-name">/probe/sitecustomize.py.
// An exception raised under it (torch rejecting TORCH_LOGS at import) passes through it, but it is the tool's.
func isToolProbe(p string) bool {
	dir, ok := strings.CutSuffix(p, "/probe/sitecustomize.py")
	if !ok {
		return false
	}
	run := dir[strings.LastIndexByte(dir, '/')+1:]
	digits := strings.IndexFunc(run, func(r rune) bool { return r < '0' || r > '9' })
	return digits >= 4 && run[digits] == '-'
}

// isInductorCode reports Inductor's generated code in its cache ("…/torchinductor_USER/r3/cr3t6jz….py", or any
// TORCHINDUCTOR_CACHE_DIR: a file "c" + hash + ".py" in the directory named by the hash's first two characters):
// an error raised there belongs to the user frame that called the compiled function.
// IsInductorCode reports a module Inductor generated (<cache>/xx/c<hash>.py, or under a torchinductor_ temp dir):
// a compiled region's code, which IsLibraryFile counts as library code.
func IsInductorCode(path string) bool { return isInductorCode(strings.ReplaceAll(path, `\`, "/")) }

func isInductorCode(p string) bool {
	if strings.Contains(p, "/torchinductor_") {
		return true
	}
	dir, base, ok := strings.Cut(p[max(0, strings.LastIndexByte(p[:max(0, strings.LastIndexByte(p, '/'))], '/')+1):], "/")
	return ok && len(base) >= 40 && base[0] == 'c' && strings.HasSuffix(base, ".py") && len(dir) == 2 && base[1:3] == dir
}

// UserFrame returns the deepest frame outside library code, or false.
func UserFrame(frames []Frame) (Frame, bool) {
	for i := len(frames) - 1; i >= 0; i-- {
		if !IsLibraryFile(frames[i].File) {
			return frames[i], true
		}
	}
	return Frame{}, false
}

// SplitSite splits "FILE:LINE" (0 when the line is not a number).
func SplitSite(s string) (string, int) {
	s = strings.TrimSpace(s)
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return s, 0
	}
	return s[:i], n
}

// rootCauseRank reads torchrun's "Root Cause (first observed failure):" block: its "rank : N (local_rank: M)"
// line; -1 when the summary names none.
func rootCauseRank(lines []string) int {
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "Root Cause") {
			continue
		}
		for _, m := range lines[i+1 : min(len(lines), i+8)] {
			t := strings.TrimSpace(m)
			if rest, ok := strings.CutPrefix(t, "rank"); ok {
				rest = strings.TrimLeft(rest, " :")
				end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
				if end < 0 {
					end = len(rest)
				}
				if n, err := strconv.Atoi(rest[:end]); err == nil {
					return n
				}
			}
		}
	}
	return -1
}

// unsupportedBuiltin is the builtin a break is about: 2.6's "Graph break due to unsupported builtin time.time. This
// function is either a Python builtin …" and 2.14's "Dynamo does not know how to trace the builtin `time.time.`"
// (a record's reason or explanation, or Dynamo's warning about it): "time.time"; "" for other text.
func unsupportedBuiltin(msg string) string {
	if i := strings.Index(msg, "does not know how to trace the builtin `"); i >= 0 { // 2.14
		rest := msg[i+len("does not know how to trace the builtin `"):]
		if end := strings.IndexByte(rest, '`'); end > 0 {
			return strings.TrimSuffix(rest[:end], ".")
		}
		return ""
	}
	const head = "Graph break due to unsupported builtin " // 2.6
	i := strings.Index(msg, head)
	if i < 0 {
		return ""
	}
	rest := msg[i+len(head):]
	end := strings.Index(rest, ". ")
	if end < 0 {
		end = len(strings.TrimSuffix(strings.TrimSpace(rest), "."))
	}
	return rest[:end]
}

// CutBareException is the Cut of an exception printed without its traceback: a pasted log cut above it, or (in a
// run torchtriage captured whole) the program printing the exception itself.
const CutBareException = "an exception without its traceback"

package logparse

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// gbLinkID is the number of the first graph-break page link in t, what `/gb/gb(\d+)\.html` matches ("" if
// none), without a regexp: 2.9+ writes the link into every graph-break record.
func gbLinkID(t string) string {
	for i := strings.Index(t, "/gb/gb"); i >= 0; {
		rest := t[i+len("/gb/gb"):]
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n > 0 && strings.HasPrefix(rest[n:], ".html") {
			return rest[:n]
		}
		j := strings.Index(t[i+1:], "/gb/gb")
		if j < 0 {
			return ""
		}
		i += 1 + j
	}
	return ""
}

// ParseBreak reads a graph-break record of any era (see docs: torch-log-formats §3).
func ParseBreak(lines []string) *GraphBreak {
	g := &GraphBreak{}
	if len(lines) == 0 {
		return g
	}
	first := lines[0]
	site := ""
	switch {
	case strings.HasPrefix(first, "Graph break from `Tensor.item()`"):
		g.Variant, g.Reason = BreakItemWarning, "Tensor.item()"
	case strings.HasPrefix(first, "Graph break: skip:"), strings.Contains(first, "cannot properly resume"):
		g.Variant = BreakFrameSkip
		g.Reason = strings.TrimSpace(strings.TrimPrefix(first, "Graph break:"))
	case strings.Contains(first, " in user code at "):
		if strings.HasPrefix(first, "Graph break (") {
			g.Variant = BreakDuplicate
		}
		site = first[strings.Index(first, " in user code at ")+len(" in user code at "):]
	case strings.HasPrefix(first, "Graph break: ") && !strings.HasPrefix(first, "Graph break: from user code at"):
		// 2.0–2.2: "Graph break: <reason> from user code at …"
		rest := strings.TrimPrefix(first, "Graph break: ")
		if i := strings.Index(rest, " from user code at"); i >= 0 {
			g.Reason = strings.TrimSpace(rest[:i])
			// 2.0 warnings: the site on the same line ("from user code at   File "x.py", line 232, in forward")
			if f, ok := parseFrameLine(rest[i+len(" from user code at"):]); ok {
				site = f.File + ":" + strconv.Itoa(f.Line)
			}
		} else {
			g.Reason = strings.TrimSpace(rest)
		}
	}
	g.File, g.Line = SplitSite(site)
	inTraceback := false
	var framesBuf [32]string
	var hintsBuf [4]string
	userFrames, hints := framesBuf[:0], hintsBuf[:0] // built here, kept at their size
	from := 1
	if !strings.HasPrefix(first, "Graph break") {
		from = 0 // the header was cut off (pasted text): the body starts at once
	}
	for i := from; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "Graph Break Reason:"):
			g.Reason = strings.TrimSpace(strings.TrimPrefix(t, "Graph Break Reason:"))
			g.GBType = g.Reason
			if strings.HasPrefix(g.Reason, "Failed to handle graph break gracefully") {
				// 2.14: the frame cannot resume after the break and runs eager; the gb_type follows
				g.Variant = BreakFrameSkip
			}
			if strings.HasPrefix(g.Reason, "Encountered graph break when attempting to trace") || g.Variant == BreakFrameSkip {
				for j := i + 1; j < len(lines); j++ {
					if s := strings.TrimSpace(lines[j]); s != "" {
						g.GBType = s
						i = j
						break
					}
				}
			}
		case strings.HasPrefix(l, "Reason: ") && g.Reason == "":
			g.Reason = strings.TrimSpace(l[len("Reason: "):])
		case strings.HasPrefix(t, "Explanation:"):
			g.Explanation = strings.TrimSpace(strings.TrimPrefix(t, "Explanation:"))
		case strings.HasPrefix(t, "Developer debug context:"):
			if g.DebugContext == "" {
				g.DebugContext = t
			}
		case strings.HasPrefix(t, "Hint:"):
			hints = append(hints, strings.TrimSpace(strings.TrimPrefix(t, "Hint:")))
		case strings.Contains(t, "/gb/gb"):
			if id := gbLinkID(t); id != "" {
				g.GBID = "GB" + id
			}
		case strings.HasPrefix(t, "Traceback (most recent call last):"):
			inTraceback = true
		case inTraceback && g.Variant == BreakFrameSkip && g.Explanation == "" && strings.HasPrefix(l, "torch._dynamo.exc.Unsupported: ") &&
			strings.Contains(l, "purposely graph breaks"):
			// 2.6's "Graph break: skip: from user code at:" says why only in its traceback's Unsupported; where Dynamo
			// breaks there by design ("TorchDynamo purposely graph breaks on RNN, GRU, LSTMs") that is the answer: kept
			// as the explanation, the reason stays the record's (other skips stay the frame skip's)
			g.Explanation = strings.TrimSpace(l[len("torch._dynamo.exc.Unsupported: "):])
		case inTraceback && strings.HasPrefix(l, "torch._dynamo.exc.") && g.Reason == "":
			// 2.3–2.5: the reason is the final exception line of the internal traceback.
			if c := strings.Index(l, ": "); c >= 0 {
				g.Reason = strings.TrimSpace(l[c+2:])
			}
		case !inTraceback:
			userFrames = append(userFrames, l)
		}
	}
	if len(hints) > 0 {
		g.Hints = slices.Clone(hints)
	}
	g.Frames = parseFrames(userFrames)
	if g.File == "" && len(g.Frames) > 0 {
		last := g.Frames[len(g.Frames)-1]
		g.File, g.Line = last.File, last.Line
	}
	if f, ok := UserFrame(g.Frames); ok {
		g.UserFrame = f
	} else if g.File != "" && !IsLibraryFile(g.File) {
		g.UserFrame = Frame{File: g.File, Line: g.Line}
	}
	if g.GBType == "" && g.Reason == "" && g.Variant == BreakFull {
		g.Reason = "unknown"
	}
	g.Builtin = unsupportedBuiltin(g.Reason + "\n" + g.Explanation)
	return g
}

var limitRe = regexp.MustCompile(`hit config\.(\w+) \((\d+)\)`)
var limitOldRe = regexp.MustCompile(`hit recompilation cache limit \((\d+)\) for function '([^']*)'`)
var limitFuncRe = regexp.MustCompile(`function: '([^']*)' \((.*)\)`)

// parseLimit reads "torch._dynamo hit config.recompile_limit (8)" and its function / last reason lines.
func parseLimit(lines []string) *LimitHit {
	lh := &LimitHit{}
	if len(lines) == 0 {
		return lh
	}
	if m := limitRe.FindStringSubmatch(lines[0]); m != nil {
		lh.Limit = m[1]
		lh.Value, _ = strconv.Atoi(m[2])
	} else if m := limitOldRe.FindStringSubmatch(lines[0]); m != nil {
		// 2022: "torchdynamo hit recompilation cache limit (64) for function 'forward'"
		lh.Limit, lh.Function = "cache_size_limit", m[2]
		lh.Value, _ = strconv.Atoi(m[1])
	}
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "function: "):
			if m := limitFuncRe.FindStringSubmatch(t); m != nil {
				lh.Function = m[1]
				lh.File, lh.Line = SplitSite(m[2])
			}
		case strings.HasPrefix(t, "last reason: "):
			lh.LastReason = strings.TrimSpace(strings.TrimPrefix(t, "last reason: "))
		case strings.HasPrefix(t, "reasons: "):
			lh.LastReason = strings.TrimSpace(strings.TrimPrefix(t, "reasons: "))
		}
	}
	return lh
}

// ParseTraceback reads a traceback in Python's own form (a TORCH_TRACE payload's lines): the final exception,
// its message and the user frame, as the text parser reads one.
func ParseTraceback(lines []string) *CompileError {
	return parseException(normalizeTraceback(lines, tbPython))
}

// parseException reads a Python traceback: the final exception, its message and the user frame.
func parseException(lines []string) *CompileError {
	e := &CompileError{}
	expecting := false
	var frames []string
	fromUser := -1
	excAt := -1
	directCause := false // the line before this exception's traceback said the one above was its direct cause
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "Traceback (most recent call last):"):
			expecting, frames = true, frames[:0]
		case expecting && l != "" && l[0] != ' ' && l[0] != '\t':
			expecting = false
			if excAt >= 0 && e.Interrupt == "" && interruptClass(e.Class) { // an earlier exception of the chain
				e.Interrupt = e.Class[strings.LastIndexByte(e.Class, '.')+1:]
			}
			e.Cause = ""
			if excAt >= 0 && directCause { // "raise … from" it: the exception above says why
				e.Cause = e.Class[strings.LastIndexByte(e.Class, '.')+1:]
				if m, _, _ := strings.Cut(e.Message, "\n"); m != "" {
					e.Cause += ": " + m
				}
			}
			directCause = false
			excAt = i
			e.Class, e.Message, e.Inner = l, "", ""
			if c := strings.Index(l, ": "); c > 0 && !strings.Contains(l[:c], " ") {
				e.Class, e.Message = l[:c], strings.TrimSpace(l[c+2:])
			} else if strings.HasSuffix(l, ":") && !strings.Contains(l, " ") {
				e.Class = strings.TrimSuffix(l, ":")
			}
		case expecting:
			frames = append(frames, l)
		case strings.TrimSpace(l) == "from user code:":
			fromUser = i
		case strings.HasPrefix(strings.TrimSpace(l), string(hChainCause)):
			directCause = true
		case strings.HasPrefix(strings.TrimSpace(l), string(hChainHandling)):
			directCause = false
		}
	}
	if excAt >= 0 {
		// Message continuation lines, and the inner error of BackendCompilerFailed.
		for j := excAt + 1; j < len(lines) && j <= excAt+6; j++ {
			t := strings.TrimSpace(lines[j])
			if t == "" && e.Inner == "" && strings.HasSuffix(e.Message, "raised:") {
				continue // the inner error after a blank line: a paste whose every line end became two (a terminal's CRLF)
			}
			if t == "" || strings.HasPrefix(t, "Traceback") || strings.HasPrefix(t, "from user code") {
				break
			}
			if e.Inner == "" && strings.HasSuffix(e.Message, "raised:") {
				if c := strings.Index(t, ": "); c > 0 && !strings.Contains(t[:c], " ") {
					e.Inner = t[:c]
				}
			}
			e.Message = JoinExtra(e.Message, t)
		}
	}
	if excAt >= 0 && strings.Contains(e.Class+e.Inner+e.Message, "CppCompileError") {
		// its message goes on with the compiler's command and output: keep the compiler's first diagnostic, which
		// tells a broken toolchain (a missing header) from generated code that does not compile
		if d := compilerDiagnostic(lines[excAt+1:]); d != "" {
			e.Message = JoinExtra(e.Message, d)
		}
	}
	if excAt >= 0 {
		for _, l := range lines[excAt+1:] {
			if strings.HasPrefix(strings.TrimSpace(l), "You can suppress this exception and fall back to eager") {
				e.Epilogue = true
				break
			}
		}
	}
	e.Frames = parseFrames(frames)
	if fromUser >= 0 {
		if fs := parseFrames(lines[fromUser+1:]); len(fs) > 0 {
			e.Frame = fs[len(fs)-1]
			return e
		}
	}
	if f, ok := UserFrame(e.Frames); ok {
		e.Frame = f
	}
	return e
}

// compilerDiagnostic is the first error a C++ compiler printed in the lines after a CppCompileError
// ("…/c2z….main.cpp:16:33: error: ‘compile’ was not declared in this scope", "…/x.h:19:10: fatal error:
// ATen/NumericUtils.h: No such file or directory"), "" when none comes before the next traceback.
func compilerDiagnostic(lines []string) string {
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if i >= 200 || strings.HasPrefix(t, "Traceback") {
			break
		}
		if strings.Contains(t, ": error: ") || strings.Contains(t, ": fatal error: ") {
			return t
		}
	}
	return ""
}

// interruptClass reports an exception that stops a process from outside: KeyboardInterrupt (SIGINT), SystemExit,
// torchelastic's SignalException (SIGTERM under torchrun).
func interruptClass(class string) bool {
	switch class[strings.LastIndexByte(class, '.')+1:] {
	case "KeyboardInterrupt", "SystemExit", "SignalException":
		return true
	}
	return false
}

// JoinExtra appends a continuation line b to a guard failure's Extra a (newline-separated).
func JoinExtra(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

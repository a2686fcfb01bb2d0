package logparse

import (
	"slices"
	"strconv"
	"strings"
)

// normalizeTraceback rewrites the pasted forms of a traceback (pasted-logs.md §1) into Python's own, which
// parseException reads: a headless one gets its header back, IPython's and pytest's
// frames become "  File …" lines and their exception lines get the class's module back (an indented one was
// dedented line by line: builder.dedent).
func normalizeTraceback(lines []string, flavor byte) []string {
	if len(lines) == 0 {
		return lines
	}
	switch flavor {
	case tbHeadless:
		return headlessChain(lines)
	case tbIPython:
		return normalizeIPython(lines)
	case tbCpp:
		return normalizeCpp(lines)
	case tbPytest:
		return normalizePytest(lines)
	}
	return lines
}

// headlessChain gives every exception of a chain pasted without headers and frames its header back, and a class
// named without its module (IPython's last line) its module.
func headlessChain(lines []string) []string {
	out := make([]string, 0, len(lines)+2)
	out = append(out, string(hTraceback))
	chain, exc := false, true // exc: l is an exception line
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, string(hChainCause)) || strings.HasPrefix(t, string(hChainHandling)):
			chain = true
		case chain && exceptionHead([]byte(l)):
			out = append(out, string(hTraceback))
			chain, exc = false, true
		case t != "":
			chain = false
		}
		if exc {
			if cls, _, _ := strings.Cut(l, ":"); !strings.Contains(cls, ".") {
				l = QualifyClass(cls) + l[len(cls):]
			}
			exc = false
		}
		out = append(out, l)
	}
	return out
}

// normalizeIPython reads "Unsupported    Traceback (most recent call last)", "Cell In[4], line 7",
// "File /x.py:12, in f(a, b)", "----> 7 out = model(x)" and the last line "Unsupported: …".
func normalizeIPython(lines []string) []string {
	out := make([]string, 0, len(lines))
	cls := ""
	for _, l := range lines {
		t := strings.TrimRight(l, " ")
		switch {
		case ipythonHeader([]byte(t)):
			cls = strings.Fields(t)[0]
			out = append(out, string(hTraceback))
		case strings.HasPrefix(t, "Cell In["):
			// Cell In[4], line 7
			if c := strings.Index(t, ", line "); c > 0 {
				out = append(out, `  File "`+t[:c]+`", line `+strings.TrimSpace(t[c+len(", line "):])+", in <cell>")
			}
		case strings.HasPrefix(t, "File "):
			out = append(out, ipythonFrame(t[len("File "):]))
		case ipythonArrow(t):
			// the line that ran: "----> 7 out = model(x)", the arrow padded to the numbers' width ("--> 655")
			code := strings.TrimLeft(t, "->")
			code = strings.TrimLeft(code, " 0123456789")
			out = append(out, "    "+code)
		case cls != "" && (t == cls || strings.HasPrefix(t, cls+": ")):
			out = append(out, QualifyClass(cls)+t[len(cls):])
			cls = ""
		default:
			out = append(out, l)
		}
	}
	return out
}

// ipythonArrow reports IPython's arrow at the line that ran: dashes, ">", then the line number ("----> 7",
// "---> 12", "--> 655", "-> 12").
func ipythonArrow(t string) bool {
	rest := strings.TrimLeft(t, "-")
	if len(rest) == len(t) || !strings.HasPrefix(rest, ">") {
		return false
	}
	rest = strings.TrimLeft(rest[1:], " ")
	return rest != "" && rest[0] >= '0' && rest[0] <= '9'
}

// ipythonFrame turns "/x.py:12, in f(a, b)" into `  File "/x.py", line 12, in f`.
func ipythonFrame(s string) string {
	loc, fn, _ := strings.Cut(s, ", in ")
	if p := strings.IndexByte(fn, '('); p > 0 {
		fn = fn[:p]
	}
	file, line := SplitSite(loc)
	return `  File "` + file + `", line ` + strconv.Itoa(line) + ", in " + fn
}

// normalizePytest reads pytest's failure block: "E   " lines hold the exception and its message, "path.py:12: in f"
// lines are frames, "path.py:12: Unsupported" is the summary, a chain separator starts the next exception.
func normalizePytest(lines []string) []string {
	out := make([]string, 0, len(lines)+2)
	head := func() {
		if n := len(out); n == 0 || strings.HasPrefix(out[n-1], string(hChainCause)) || strings.HasPrefix(out[n-1], string(hChainHandling)) {
			out = append(out, string(hTraceback))
		}
	}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case l == "E" || strings.HasPrefix(l, "E "):
			head()
			out = append(out, strings.TrimPrefix(strings.TrimPrefix(l, "E"), "   "))
		case pytestFrame([]byte(l)):
			head()
			loc, fn, _ := strings.Cut(strings.TrimSuffix(t, ":"), ": in ")
			file, line := SplitSite(loc)
			out = append(out, `  File "`+file+`", line `+strconv.Itoa(line)+", in "+fn)
		case strings.HasPrefix(t, string(hChainCause)) || strings.HasPrefix(t, string(hChainHandling)):
			out = append(out, t)
		}
	}
	return out
}

// QualifyClass gives a class named without its module (IPython prints "Unsupported", a TORCH_TRACE fail_type
// "BackendCompilerFailed") its torch module when it is one of Dynamo's or Inductor's exceptions.
func QualifyClass(cls string) string {
	switch {
	case dynamoExc[cls]:
		return "torch._dynamo.exc." + cls
	case inductorExc[cls]:
		return "torch._inductor.exc." + cls
	}
	return cls
}

// guardEvidence describes guard-failure lines whose "Recompiling function" header was not pasted: not a
// recompile that can be counted, but what it shows.
func guardEvidence(lines []string) string {
	var fails []string
	for _, l := range lines {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "- ") {
			fails = append(fails, strings.TrimPrefix(t, "- "))
		}
	}
	s := "guard failures without their `Recompiling function` header"
	if len(fails) > 0 {
		s += ": " + strings.Join(fails[:min(len(fails), 3)], "; ")
	}
	return s
}

// normalizeCpp reads std::terminate's form of an uncaught C++ exception of torch: "terminate called after throwing
// an instance of 'c10::DistBackendError'", then "  what():  [PG ID 0 …] Process group watchdog thread terminated
// with exception: …" and its further lines, then "Exception raised from … (most recent call first):" and "frame #N:"
// lines. The class and what() are the exception line ("c10::DistBackendError: [PG ID 0 …] …").
func normalizeCpp(lines []string) []string {
	cls := strings.TrimPrefix(lines[0], string(hTerminate))
	if i := strings.IndexByte(cls, '\''); i >= 0 {
		cls = cls[:i]
	}
	out := []string{string(hTraceback)}
	what := false
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, string(hWhat)):
			out = append(out, cls+": "+strings.TrimSpace(strings.TrimPrefix(t, string(hWhat))))
			what = true
		case !what:
		case strings.HasPrefix(t, "Exception raised from ") || strings.HasPrefix(t, "frame #"):
			return out
		default:
			out = append(out, "  "+t) // more lines of the message
		}
	}
	if !what {
		out = append(out, cls)
	}
	return out
}

// cppFrames are the frames in torch's libraries of a C++ stack trace ("frame #N: symbol + 0x… (0x… in
// /…/torch/lib/libc10.so)"), outermost first, the library as the frame's file (libc's and the like left out: no
// frame of a program's source).
func cppFrames(lines []string) []Frame {
	var out []Frame
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "frame #") {
			continue
		}
		i := strings.LastIndex(t, " in ")
		if i < 0 || !strings.HasSuffix(t, ")") {
			continue
		}
		fn := t[strings.IndexByte(t, ':')+1:]
		if j := strings.LastIndex(fn, " + 0x"); j >= 0 {
			fn = fn[:j]
		} else if j := strings.LastIndex(fn, " ("); j >= 0 {
			fn = fn[:j]
		}
		if lib := t[i+4 : len(t)-1]; strings.Contains(lib, "/torch/") {
			out = append(out, Frame{File: lib, Func: strings.TrimSpace(fn)})
		}
	}
	slices.Reverse(out) // printed most recent call first
	return out
}

// dynamoExc are the torch._dynamo.exc classes a trace's fail_type (and a pasted head) names without their module.
var dynamoExc = map[string]bool{"Unsupported": true, "BackendCompilerFailed": true, "FailOnRecompileLimitHit": true,
	"RecompileError": true, "UserError": true, "TorchRuntimeError": true, "InternalTorchDynamoError": true,
	"ObservedException": true, "SkipFrame": true, "UncapturedHigherOrderOpError": true, "RecompileLimitExceeded": true,
	"CacheLimitExceeded": true, "TorchDynamoException": true, "ArgsMismatchError": true, "ResetRequired": true}

// inductorExc are the torch._inductor.exc classes a trace's fail_type names without their module.
var inductorExc = map[string]bool{"InductorError": true, "LoweringException": true, "CppCompileError": true,
	"CUDACompileError": true, "InvalidCxxCompiler": true, "MissingOperatorWithDecomp": true,
	"MissingOperatorWithoutDecomp": true, "TritonMissing": true, "GPUTooOldForTriton": true}

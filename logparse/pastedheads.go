package logparse

import "bytes"

// Record heads of pasted text (docs: pasted-logs.md §1, §4): the last exception line of a crash pasted without
// its traceback header, IPython's and pytest's forms of a traceback, and
// the bodies of graph-break and recompile records whose header was cut off.

// flavors of a headTraceback record
const (
	tbPython   byte = iota // "Traceback (most recent call last):"
	tbHeadless             // the exception line itself, its header and frames not pasted
	tbIPython              // "Unsupported       Traceback (most recent call last)" with "Cell In[4], line 7" frames
	tbPytest               // "E   torch._dynamo.exc.Unsupported: …" lines and a "path.py:12: Unsupported" summary
	tbCpp                  // "terminate called after throwing an instance of 'c10::DistBackendError'" + "  what():  …"
)

var (
	hIPython = []byte("Traceback (most recent call last)")
	hGBR     = []byte("Graph Break Reason:")
	hUserTB  = []byte("User code traceback:")
	hTrigger = []byte("triggered by the following guard failure")
	// std::terminate's words for an uncaught C++ exception: the process aborts (SIGABRT) after them
	hTerminate = []byte("terminate called after throwing an instance of '")
	hWhat      = []byte("what():")
)

// torchCppException reports std::terminate's line for an uncaught exception of torch's C++ libraries (c10's classes:
// c10::Error, c10::DistBackendError that the NCCL watchdog throws, …; gloo's, which torch bundles: the
// gloo::EnforceNotMet a size mismatch aborts a rank with): the process died of it, a runtime error. (A library torch
// does not ship, std:: itself, is not torch's output.)
func torchCppException(b []byte) bool {
	rest := b[min(len(hTerminate), len(b)):]
	return bytes.HasPrefix(b, hTerminate) && (bytes.HasPrefix(rest, []byte("c10::")) ||
		bytes.HasPrefix(rest, []byte("c10d::")) || bytes.HasPrefix(rest, []byte("gloo::")))
}

// cppTorchFrame reports a frame of a C++ stack trace torch printed ("frame #3: … (0x7f… in
// /usr/lib/python3/dist-packages/torch/lib/libtorch_cuda.so)"): a line of torch, whatever surrounds it.
func cppTorchFrame(b []byte) bool {
	return len(b) > 12 && b[0] == 'f' && bytes.HasPrefix(b, []byte("frame #")) && bytes.Contains(b, []byte("/torch/lib/"))
}

// exceptionHead reports an exception line at the start of a line: a class named with its module
// ("torch._dynamo.exc.Unsupported: …", "torch.OutOfMemoryError: …"), a builtin-style "…Error: …" /
// "…Exception: …" class, or one of Dynamo's or Inductor's classes without its module as IPython names it
// ("BackendCompilerFailed: …": bareTorchClass), followed by ": message" or nothing. A message with no class
// ("Unsupported: …") is not.
func exceptionHead(b []byte) bool {
	if len(b) < 8 || !(b[0] >= 'A' && b[0] <= 'Z' || b[0] == 't') {
		return false
	}
	end := bytes.IndexByte(b, ':')
	switch {
	case end < 0:
		end = len(b)
	case end+1 < len(b) && b[end+1] != ' ':
		return false
	}
	cls := b[:end]
	dot := -1
	for i, c := range cls {
		switch {
		case c == '.':
			dot = i
		case !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c)):
			return false
		}
	}
	last := cls[dot+1:]
	if len(last) == 0 || last[0] < 'A' || last[0] > 'Z' {
		return false
	}
	if bytes.HasPrefix(cls, []byte("torch.")) || dot < 0 && bareTorchClass(cls) {
		return true
	}
	return len(last) > 5 && (bytes.HasSuffix(last, []byte("Error")) || bytes.HasSuffix(last, []byte("Exception")) && len(last) > 9)
}

// bareTorchClass reports one of Dynamo's or Inductor's exception classes named without its module, as IPython
// prints a traceback's last line (pasted-logs.md §1: "InductorError: …", "BackendCompilerFailed: …"), when the
// name is no plain word: "Unsupported: …" is also what a wrapper that logged the message prints (the doc: count
// it only when the class is named), "BackendCompilerFailed: …" is only ever the class.
func bareTorchClass(name []byte) bool {
	if len(name) > bareClassMax || !dynamoExc[string(name)] && !inductorExc[string(name)] { // (a long one: no hashing)
		return false
	}
	upper := 0
	for _, c := range name {
		if c >= 'A' && c <= 'Z' {
			upper++
		}
	}
	return upper > 1
}

// bareClassMax is the longest name of dynamoExc and inductorExc.
var bareClassMax = func() (n int) {
	for _, m := range []map[string]bool{dynamoExc, inductorExc} {
		for k := range m {
			n = max(n, len(k))
		}
	}
	return n
}()

// ipythonHeader reports IPython's traceback header: the exception class, spaces, "Traceback (most recent call
// last)" (no colon).
func ipythonHeader(b []byte) bool {
	b = bytes.TrimRight(b, " ")
	if len(b) < len(hIPython)+3 || !bytes.HasSuffix(b, hIPython) {
		return false
	}
	cls := bytes.TrimRight(b[:len(b)-len(hIPython)], " ")
	return len(cls) > 0 && len(cls) < len(b)-len(hIPython) && cls[0] != ' ' && bytes.IndexByte(cls, ' ') < 0
}

// pytestExc reports pytest's first line of a failure's exception: "E   " and an exception line.
func pytestExc(b []byte) bool {
	return len(b) > 12 && b[0] == 'E' && b[1] == ' ' && b[2] == ' ' && b[3] == ' ' && exceptionHead(b[4:])
}

// pytestFrame reports pytest's frame line "path/x.py:123: in fn", or "test_x.py:12: " for the test function.
func pytestFrame(b []byte) bool {
	b = b[:min(len(b), 300)]
	var loc []byte
	if i := bytes.Index(b, []byte(": in ")); i > 0 {
		if bytes.IndexByte(b[i+5:], ' ') >= 0 {
			return false
		}
		loc = b[:i]
	} else if n := len(b); n > 2 && b[n-1] == ' ' && b[n-2] == ':' {
		loc = b[:n-2]
	} else {
		return false
	}
	c := bytes.LastIndexByte(loc, ':')
	if c <= 0 || bytes.IndexByte(loc, ' ') >= 0 || bytes.IndexByte(loc, '/') < 0 && !bytes.Contains(loc, []byte(".py")) {
		return false
	}
	_, ok := atoi(loc[c+1:])
	return ok
}

// bareTracebackHead is the flavor of a traceback that starts at line b (not a "Traceback" line at the start,
// which weakHead already knows), or false.
func bareTracebackHead(b []byte) (byte, bool) {
	if len(b) < 8 || b[0] == ' ' || b[0] == '\t' { // (indented lines, most of a traceback, are none of them)
		return 0, false
	}
	switch c := b[0]; {
	case c == 't' && (torchCppException(b) || glooException(b)):
		return tbCpp, true
	case c == 'E' && b[1] == ' ':
		return tbPytest, pytestExc(b)
	case exceptionHead(b):
		return tbHeadless, true
	case pytestFrame(b):
		return tbPytest, true
	}
	return tbIPython, ipythonHeader(b)
}

// headlessBody reports the first line of a record body whose header was cut off: a graph break's "Graph Break
// Reason:" or "User code traceback:", or a recompile's guard failures ("- 0/3: …", "triggered by …").
func headlessBody(b []byte) headKind {
	t := bytes.TrimLeft(b, " ")
	switch {
	case len(t) < 4:
	case bytes.HasPrefix(t, hGBR), bytes.HasPrefix(t, hUserTB):
		return headBreak
	case bytes.HasPrefix(t, hTrigger):
		return headGuards
	case t[0] == '-' && t[1] == ' ' && isDigit(t[2]) || t[0] == '-' && t[1] == ' ' && t[2] == '!':
		if c := bytes.Index(t, []byte(": ")); c > 2 {
			if _, ok := parseCompileID(t[2:c]); ok {
				return headGuards
			}
		}
	}
	return headNone
}

// endsPytest reports a line that ends a pytest failure block: the next test's "____ test_x ____" or a "====="
// section line.
func endsPytest(b []byte) bool {
	return len(b) > 3 && (b[0] == '_' && b[1] == '_' && b[2] == '_' || b[0] == '=' && b[1] == '=' && b[2] == '=')
}

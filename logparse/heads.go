package logparse

import "bytes"

// headKind is what the first line of a record announces.
type headKind uint8

const (
	headNone headKind = iota
	headBreak
	headRecompile
	headLimit
	headSkip
	headTraceback
	headStack
	headPartition // "Created N graph partitions: …"
	headRerecord  // "Re-recording function=…" (also behind a "[F/C] " compile id)
	headRecording // "Recording function=…, cuda_graph_id=N" (also behind a "[F/C] " compile id)
	headWarning   // a Python warning line, or the CUDA-graph distinct-sizes W record
	headCache     // a compile-cache line (compile.go)
	headGuards    // guard failures whose "Recompiling function" header was cut off (pasted text): evidence only
	headShape     // a line of the dynamic log: create_env, create_symbol, marking … as dynamic (shapes.go)
	headDDP       // a message of the ddp_graphs log: its first line empty, the artifact tag says what it is (ddpgraphs.go)
	headWontConv  // "WON'T CONVERT <fn> <file> line N" and the error Dynamo suppressed (wontconvert.go)
	headServing   // a serving framework's compile line: vLLM, SGLang (serving.go)
)

var (
	hGraphBreak    = []byte("Graph break")
	hFromUserCode  = []byte("Graph break: from user code at:")
	hRecompiling   = []byte("Recompiling function ")
	hRecompTuple   = []byte("('Recompiling function ")
	hHitDynamo     = []byte("torch._dynamo hit config.")
	hHitOld        = []byte("torchdynamo hit config.")
	hHitOldCache   = []byte("torchdynamo hit recompilation cache limit") // the 2022 standalone package
	hSkipping      = []byte("skipping cudagraph")
	hTraceback     = []byte("Traceback (most recent call last):")
	hThread        = []byte("Thread 0x")
	hCurThread     = []byte("Current thread 0x")
	hFatal         = []byte("Fatal Python error")
	hChainCause    = []byte("The above exception was the direct cause")
	hChainHandling = []byte("During handling of the above exception")
	hCreated       = []byte("Created ")
	hPartitions    = []byte(" graph partitions: ")
	hRerecording   = []byte("Re-recording function=")
	hRecording     = []byte("Recording function=")
	hSizes         = []byte("CUDAGraph supports dynamic shapes by recording")
	hWarningColon  = []byte("Warning: ")
)

// strongHead reports a line that always starts a new record, whatever came before it.
func strongHead(b []byte) headKind {
	// no head starts with a space: an indented line, most continuation lines of a break or a recompile, is
	// answered here, not by isCacheHead and isShapeHead too
	if len(b) < 10 || b[0] == ' ' {
		return headNone
	}
	switch b[0] {
	case 'G':
		if bytes.HasPrefix(b, hGraphBreak) && !bytes.HasPrefix(b, hFromUserCode) && len(b) > 12 {
			if c := b[11]; c == ' ' || c == ':' || c == '(' {
				return headBreak
			}
		}
	case 'R':
		if bytes.HasPrefix(b, hRecompiling) {
			return headRecompile
		}
		if bytes.HasPrefix(b, hRerecording) {
			return headRerecord
		}
		if bytes.HasPrefix(b, hRecording) {
			return headRecording
		}
	case '[':
		// CUDA-graph trees write the compile id into the message, after the artifact tag: "[0/0] Re-recording …"
		if end := bytes.IndexByte(b, ']'); end > 0 && end+2 < len(b) && b[end+1] == ' ' {
			if _, ok := parseCompileID(b[1:end]); ok {
				switch rest := b[end+2:]; {
				case bytes.HasPrefix(rest, hRerecording):
					return headRerecord
				case bytes.HasPrefix(rest, hRecording):
					return headRecording
				}
			}
		}
	case 'C':
		if bytes.HasPrefix(b, hSizes) {
			return headWarning
		}
		if bytes.HasPrefix(b, hCreated) {
			if i := bytes.Index(b, hPartitions); i > len(hCreated) && i < 20 {
				return headPartition
			}
		}
	case '(':
		if bytes.HasPrefix(b, hRecompTuple) {
			return headRecompile
		}
	case 't':
		if bytes.HasPrefix(b, hHitDynamo) || bytes.HasPrefix(b, hHitOld) || bytes.HasPrefix(b, hHitOldCache) {
			return headLimit
		}
	case 's':
		if bytes.HasPrefix(b, hSkipping) {
			return headSkip
		}
	case 'W':
		if bytes.HasPrefix(b, hWontConvert) {
			return headWontConv
		}
	}
	if servingFirst[b[0]] && servingHead(b) != ServingNone {
		return headServing
	}
	if isCacheHead(b) {
		return headCache
	}
	if isShapeHead(b) {
		return headShape
	}
	return headNone
}

// weakHead reports heads that start a record only as its first line, and a traceback's flavor.
func weakHead(b []byte, li *lineInfo) (headKind, byte) {
	if bytes.HasPrefix(b, hFromUserCode) {
		return headBreak, 0
	}
	if li.style == styleBare {
		switch {
		case bytes.HasPrefix(b, hTraceback):
			return headTraceback, tbPython
		case bytes.HasPrefix(b, hThread), bytes.HasPrefix(b, hCurThread), bytes.HasPrefix(b, hFatal):
			return headStack, 0
		case isPyWarning(b):
			return headWarning, 0
		}
		if fl, ok := bareTracebackHead(b); ok {
			return headTraceback, fl
		}
	} else if string(li.artifact) == "graph_breaks" && bytes.HasPrefix(b, []byte("Reason: ")) {
		return headBreak, 0 // 2.6's record cut after its "Graph break in user code at" line
	} else if len(b) == 0 && string(li.artifact) == "ddp_graphs" && li.style == styleGlog {
		return headDDP, 0 // every ddp_graphs message starts with a newline
	}
	return headlessBody(b), 0
}

func startsBareRecord(b []byte) bool {
	return bytes.HasPrefix(b, hTraceback) || bytes.HasPrefix(b, hThread) || bytes.HasPrefix(b, hCurThread) ||
		bytes.HasPrefix(b, hFatal) || isPyWarning(b)
}

// isPyWarning reports the first line of a Python warning as warnings.showwarning prints it:
// "FILE.py:LINE: CategoryWarning: message".
func isPyWarning(b []byte) bool {
	i := bytes.Index(b, hWarningColon)
	if i <= 0 || b[0] == ' ' {
		return false
	}
	j := bytes.LastIndex(b[:i], []byte(": "))
	if j <= 0 || !isIdent(b[j+2:i]) {
		return false
	}
	k := bytes.LastIndexByte(b[:j], ':')
	if k <= 3 || !bytes.HasSuffix(b[:k], []byte(".py")) {
		return false
	}
	_, ok := atoi(b[k+1 : j])
	return ok
}

// headInside finds a record head behind other text on the same line ("DEBUG|logger|Graph break in …").
func headInside(b []byte) (int, headKind) {
	if len(b) < 12 {
		return -1, headNone
	}
	if !mayHoldHead(b) { // most bare lines (tracebacks, code, user output): one pass, not six searches
		return servingBehind(b)
	}
	for _, h := range [...][]byte{hGraphBreak, hRecompiling, hHitDynamo, hHitOld, hHitOldCache, hSkipping} {
		i := bytes.Index(b, h)
		if i <= 0 {
			continue
		}
		if len(bytes.TrimSpace(b[:i])) == 0 || b[i-1] == '(' || b[i-1] == '\'' || b[i-1] == '"' {
			return -1, headNone
		}
		if bytes.HasSuffix(b[:i], hWarningColon) && isPyWarning(bytes.TrimLeft(b, " \t")) {
			return -1, headNone // a Python warning whose message names a break (Dynamo's about a builtin): a warning
		}
		if i > 2 && b[i-2] == ':' && b[i-1] == ' ' && excLine(b[bytes.LastIndexAny(b[:i-2], " \t")+1:]) {
			// an exception line whose message names a break ("torch._dynamo.exc.Unsupported: Graph break due to
			// unsupported builtin time.time. …", also the excepthook's "[rank7]: " one-liner and pytest's "E   "
			// line, IPython's "Unsupported: …"): the exception a process died of, not a graph-break record
			return -1, headNone
		}
		if k := strongHead(b[i:]); k != headNone {
			return i, k
		}
	}
	return servingBehind(b)
}

// servingBehind is headInside's answer for a serving framework's line behind the framework's own prefix (serving.go).
func servingBehind(b []byte) (int, headKind) {
	if j := servingInside(b); j > 0 && len(bytes.TrimSpace(b[:j])) > 0 {
		return j, headServing
	}
	return -1, headNone
}

// mayHoldHead reports whether b may hold one of the record heads headInside looks for behind other text. Each
// has a space between two known bytes: "Graph break" ("h b"), "Recompiling function " ("g f"), "… hit config." and
// "torchdynamo hit recompilation …" ("o h"), "skipping cudagraph" ("g c"); a line without any of the four pairs
// holds none of them (a false positive only costs the searches).
func mayHoldHead(b []byte) bool {
	if len(b) < 3 {
		return false
	}
	for k, c := range b[1 : len(b)-1] { // c is b[k+1]
		if c != ' ' {
			continue
		}
		switch x, y := b[k], b[k+2]; {
		case x == 'h' && y == 'b':
			return true
		case x == 'g' && (y == 'f' || y == 'c'):
			return true
		case x == 'o' && y == 'h':
			return true
		}
	}
	return false
}

// excLine: an exception line, its class named with its module or without (IPython's "Unsupported: …").
func excLine(b []byte) bool {
	return exceptionHead(b) || bytes.HasPrefix(b, []byte("Unsupported: "))
}

package logparse

import (
	"bytes"
	"strings"
	"time"
	"unicode/utf8"
)

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
	headCache     // a compile-cache line (trace_compile.go)
	headGuards    // guard failures whose "Recompiling function" header was cut off (pasted text): evidence only
	headShape     // a line of the dynamic log: create_env, create_symbol, marking … as dynamic (shapes.go)
	headDDP       // a message of the ddp_graphs log: its first line empty, the artifact tag says what it is (ddpgraphs.go)
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
	if len(b) < 10 {
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
		if k := strongHead(b[i:]); k != headNone {
			return i, k
		}
	}
	return -1, headNone
}

// builder accumulates the lines of one record.
type builder struct {
	rec       *Record
	style     style
	prefix    []byte
	prefixed  int  // lines that carried the prefix
	firstOnly bool // continuation lines come without a prefix
	head      headKind
	keep      bool   // keep the lines
	skip      string // a "skipping cudagraphs" message seen in a record whose lines are not kept
	prevChain bool   // the last line was a chained-exception separator
	flavor    byte   // of a headTraceback record: tbPython, tbHeadless, tbIPython or tbPytest
	indent    []byte // code-block indentation or pod name in front of the first line, taken off the bare lines that continue it
	logged    bool   // a traceback right under an "ERROR:<logger>:" line of Python's logging (caught.go)
	followed  bool   // a traceback ended by a line that shows the process went on (caught.go)
	done      bool   // finished: the record was classified
	detail    []byte // a partition record's: the log prefix of its last detail line (parser.go)
	part      int    // part of the input (parallel parsing) where the record starts, and where it last grew
	lastPart  int
	text      []byte // the kept lines, one after the other (made into Record.Lines when the record ends)
	ends      []int  // where each kept line ends in text
}

func (b *builder) add(p *Parser, body []byte, cut bool) {
	b.addAt(p.opt.MaxLines, p.part, p.lineNo, body, cut)
}

// addAt adds a line read as line lineNo of part part (parallel parsing, split.go).
func (b *builder) addAt(maxLines, part, lineNo int, body []byte, cut bool) {
	r := b.rec
	r.LastLine, b.lastPart = lineNo, part
	if cut {
		r.Truncated = true
	}
	if b.head == headTraceback {
		t := bytes.TrimSpace(body)
		if len(t) > 0 {
			b.prevChain = bytes.HasPrefix(t, hChainCause) || bytes.HasPrefix(t, hChainHandling)
		}
	}
	if b.keep {
		if len(b.ends) < maxLines {
			b.text = append(b.text, body...)
			b.ends = append(b.ends, len(b.text))
		} else {
			r.Truncated = true
		}
		return
	}
	if b.skip == "" {
		if i := bytes.Index(body, hSkipping); i >= 0 {
			b.skip = validString(body[i:])
		}
	}
}

// dedent takes the record's code-block indentation or pod name off a bare continuation line (a pod name alone:
// a blank line whose trailing space was trimmed).
func (b *builder) dedent(body []byte) []byte {
	if len(b.indent) > 0 && bytes.HasPrefix(body, b.indent) {
		return body[len(b.indent):]
	}
	if n := len(b.indent); n > 1 && b.indent[n-1] == ' ' && b.indent[0] != ' ' && bytes.Equal(body, b.indent[:n-1]) {
		return body[:0]
	}
	return body
}

// acceptsBare reports whether unprefixed lines continue this record (first-line-only formats).
func (b *builder) acceptsBare() bool {
	return b.firstOnly || b.style == styleCustom || (b.style == styleDate && b.prefixed == 1)
}

// startsNew reports whether an unprefixed line ends this unprefixed record.
func (b *builder) startsNew(body []byte) bool {
	if strongHead(body) != headNone {
		return true
	}
	switch {
	case bytes.HasPrefix(body, hTraceback):
		return !(b.head == headTraceback && b.prevChain)
	case bytes.HasPrefix(body, hThread), bytes.HasPrefix(body, hCurThread):
		return b.head != headStack
	case bytes.HasPrefix(body, hFatal), isPyWarning(body):
		return true
	case b.head == headTraceback && b.flavor == tbPytest && endsPytest(body):
		return true
	case b.head == headTraceback:
		if level, _ := pyLog(body); level != nil {
			return true // the program's own logging is no line of an exception's message (caught.go)
		}
	}
	if fl, ok := bareTracebackHead(body); ok {
		if b.head != headTraceback {
			return true
		}
		// a new traceback (not the next exception of a chain) ends the one before; the lines of one
		// (its exception line, pytest's E lines) go on
		return (fl == tbIPython || fl == tbPython) && !b.prevChain
	}
	return false
}

// parseWhen reads the glog "MMDD HH:MM:SS.ffffff", the C++ "MMDD HH:MM:SS.fffffffff" and the
// "YYYY-MM-DD HH:MM:SS,mmm" forms. Glog carries no year: year 0 is used. It reads the bytes of the line (no
// copy: every record's first line has one).
func parseWhen(s []byte) time.Time {
	if len(s) >= 23 && s[4] == '-' {
		t, err := time.Parse("2006-01-02 15:04:05,000", string(s[:23]))
		if err == nil {
			return t
		}
		return time.Time{}
	}
	if len(s) < 13 || s[4] != ' ' || s[7] != ':' {
		return time.Time{}
	}
	num := func(a, b int) int {
		n, ok := atoi(s[a:b])
		if !ok {
			return -1
		}
		return n
	}
	mo, d, h, mi, sec := num(0, 2), num(2, 4), num(5, 7), num(8, 10), num(11, 13)
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60 {
		return time.Time{}
	}
	ns := 0
	if len(s) > 14 && s[13] == '.' {
		frac := s[14:]
		if len(frac) > 9 {
			frac = frac[:9]
		}
		if f, ok := atoi(frac); ok {
			for i := len(frac); i < 9; i++ {
				f *= 10
			}
			ns = f
		}
	}
	return time.Date(0, time.Month(mo), d, h, mi, sec, ns, time.UTC)
}

// lines makes the kept lines into strings: one copy of the text for the whole record (returned too), invalid
// UTF-8 replaced. They go into buf when it has room (nil: a new slice).
func (b *builder) lines(buf []string) ([]string, string) {
	if len(b.ends) == 0 {
		return nil, ""
	}
	text := string(b.text)
	// one check per record: when the text is valid, so is every line that starts and ends at a rune's start
	valid := utf8.ValidString(text)
	out := buf[:0]
	if cap(out) < len(b.ends) {
		out = make([]string, len(b.ends))
	}
	out = out[:len(b.ends)]
	start := 0
	for i, end := range b.ends {
		l := text[start:end]
		whole := valid && (start == len(text) || utf8.RuneStart(text[start])) && (end == len(text) || utf8.RuneStart(text[end]))
		if !whole && !utf8.ValidString(l) {
			l = strings.ToValidUTF8(l, "\uFFFD")
		}
		out[i], start = l, end
	}
	return out, text
}

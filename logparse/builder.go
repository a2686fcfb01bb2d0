package logparse

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

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
			b.skip = ValidString(body[i:])
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
		return (fl == tbIPython || fl == tbPython || fl == tbCpp) && !b.prevChain
	}
	return false
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

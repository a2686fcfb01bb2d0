package logparse

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// Hard-wrapped pastes: a reporter's terminal, editor or mail client broke every line longer than W columns into
// pieces of exactly W (`fold -w W`, a terminal's rows copied as lines); a record's site ("Graph break in user code
// at …/x.py:4", "File \"…\", line 4") is then cut in two and its glog heads no longer start its lines. The one rule:
// in an input whose start shows such pieces (WrapWidth), a line of exactly W columns is joined with the line after
// it, unless that line starts a line of its own (a glog head, a rank prefix): the lines are read as printed.

// Widths a hard wrap is looked for at: terminals and editors break at 80 to 120 columns, mail and issue
// trackers at about 72; no log line is wrapped below 60.
const (
	minWrap = 60
	maxWrap = 250
)

// WrapWidth is the width the lines of head (an input's start) were hard-wrapped at, 0 when they were not: the
// longest lines are all exactly W columns long, at least 3 of them and a tenth of the lines, and most are followed
// by a line that does not start one of its own (its rest), which makes at least 3 different lines with them (digits
// aside: not one record or warning printed again with another time stamp, followed by the same output). A log as
// printed has few lines of its longest length, followed by anything.
func WrapWidth(head []byte) int {
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		head = head[:i+1]
	} else {
		return 0
	}
	var widths []int
	var lines [][]byte
	w := 0
	for len(head) > 0 {
		i := bytes.IndexByte(head, '\n')
		l := bytes.TrimSuffix(head[:i], []byte("\r"))
		head = head[i+1:]
		n := utf8.RuneCount(l)
		widths, lines = append(widths, n), append(lines, l)
		w = max(w, n)
	}
	if w < minWrap || w > maxWrap {
		return 0
	}
	full, rest := 0, 0
	var seen []string // the joined lines met so far, digits left out (time stamps, pids, compile ids)
	for i, n := range widths {
		if n != w {
			continue
		}
		full++
		if i+1 < len(lines) && len(lines[i+1]) > 0 && !startsOwnLine(lines[i+1]) {
			rest++
			if len(seen) < 3 {
				if j := noDigits(lines[i], lines[i+1]); !slices.Contains(seen, j) {
					seen = append(seen, j)
				}
			}
		}
	}
	if full < 3 || len(seen) < 3 || full*10 < len(widths) || rest*2 < full {
		return 0
	}
	return w
}

// noDigits is a and b joined without their digits.
func noDigits(a, b []byte) string {
	out := make([]byte, 0, len(a)+len(b))
	for _, c := range append(a[:len(a):len(a)], b...) {
		if c < '0' || c > '9' {
			out = append(out, c)
		}
	}
	return string(out)
}

// startsOwnLine: a line that a wrap did not make: it holds a glog or dated head (whatever a log shipper, a quote or
// indentation put in front of it, or output glued before it) or starts with a rank prefix. (Not a head cut at its
// compile id, nor a record head: a wrap of a glog line falls right before its "[0/0] [__graph_breaks]" or its
// message at some widths, for every line of one emitter.)
func startsOwnLine(l []byte) bool {
	if bytes.HasPrefix(l, []byte("[rank")) || bytes.HasPrefix(l, []byte("[default")) {
		return true
	}
	var li lineInfo
	decodeLine(l, &li)
	return li.style == styleGlog || li.style == styleDate || li.rank >= 0
}

// wrapped reports a physical line that is a hard wrap's piece (exactly the input's wrap width).
func (p *Parser) wrapped(line []byte) bool {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return len(line) >= p.opt.wrap && utf8.RuneCount(line) == p.opt.wrap
}

// unwrap joins a hard-wrapped input's pieces (WrapWidth) into the lines they were cut from, and parses each:
// a piece of the wrap width waits for the line after it, which continues it unless it starts a line of its own.
// A joined line is numbered as its first piece (a record's FirstLine is where it starts in the paste); the line
// after it as the paste numbers it.
func (p *Parser) unwrap(line []byte, cut bool) {
	if len(p.held) > 0 || p.heldCut {
		if startsOwnLine(line) {
			p.flushHeld()
		} else {
			piece := p.wrapped(line)
			if piece {
				line = bytes.TrimSuffix(line, []byte("\r"))
			}
			p.held = append(p.held, line...)
			p.heldCut = p.heldCut || cut
			p.heldPieces++
			if piece && len(p.held) < p.opt.MaxLine {
				return
			}
			p.flushHeld()
			return
		}
	}
	if p.wrapped(line) {
		p.held = append(p.held[:0], bytes.TrimSuffix(line, []byte("\r"))...)
		p.heldCut, p.heldPieces = cut, 1
		return
	}
	p.physLine(line, cut)
}

// flushHeld parses the line a wrap's pieces make (or a piece that no line continued).
func (p *Parser) flushHeld() {
	if len(p.held) > 0 || p.heldCut {
		line, cut := p.held, p.heldCut
		p.crlf = hasSpecial(line)
		p.physLine(line, cut)
		p.lineNo += max(p.heldPieces-1, 0)
		p.held, p.heldCut, p.heldPieces = p.held[:0], false, 0
	}
}

// wrapOf is Options.wrap for an input that starts with head: its wrap width, -1 when it is not wrapped.
func wrapOf(head []byte) int {
	if w := WrapWidth(head); w > 0 {
		return w
	}
	return -1
}

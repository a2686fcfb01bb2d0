package logparse

import "bytes"

// Write feeds bytes. It never fails.
func (p *Parser) Write(b []byte) (int, error) {
	if useLineEnd {
		p.writeFolded(b)
	} else {
		p.writeScanned(b)
	}
	return len(b), nil
}

// writeFolded splits b into lines in one pass: lineEnd finds each line's newline and whether it holds a '\r' or
// an ESC byte at once.
func (p *Parser) writeFolded(b []byte) {
	for start := 0; start < len(b); {
		if start = p.skipHole(b, start); start == len(b) {
			return
		}
		nl, special := lineEnd(b[start:])
		if nl < 0 {
			p.addPending(b[start:])
			return
		}
		if !special && nl <= p.opt.MaxLine && p.opt.wrap <= 0 && len(p.pending) == 0 && !p.pendCut {
			// most lines: whole in b, no '\r' or ESC, no hard-wrapped paste: what lineAt and physLine do with
			// one, without their calls
			p.crlf = false
			p.lineNo++
			p.line(b[start:start+nl], false)
			start += nl + 1
			continue
		}
		p.crlf = special
		start = p.lineAt(b, start, start+nl)
	}
}

// writeScanned splits b into lines where lineEnd has no one pass: the newline of each line, and the chunk scanned
// for '\r' and for ESC apart. nextCR / nextESC: where the next '\r' / ESC byte is in b (len(b) when none is left);
// each is searched again only once passed, so a line is checked for them in O(1) and the chunk is scanned once per
// byte.
func (p *Parser) writeScanned(b []byte) {
	nextCR, nextESC := indexOrLen(b, 0, '\r'), indexOrLen(b, 0, 0x1b)
	for start := 0; start < len(b); {
		if start = p.skipHole(b, start); start == len(b) {
			return
		}
		nl := bytes.IndexByte(b[start:], '\n')
		if nl < 0 {
			p.addPending(b[start:])
			return
		}
		end := start + nl
		p.crlf = nextCR < end || nextESC < end
		start = p.lineAt(b, start, end)
		if nextCR < start {
			nextCR = indexOrLen(b, start, '\r')
		}
		if nextESC < start {
			nextESC = indexOrLen(b, start, 0x1b)
		}
	}
}

// skipHole skips the NULs at start when a line starts there: NULs before a line are no part of it (a file
// truncated under its writer holds a hole of them up to the writer's offset, then the next line written:
// copytruncate, `: > log`).
func (p *Parser) skipHole(b []byte, start int) int {
	if b[start] == 0 && len(p.pending) == 0 && !p.pendCut {
		return SkipNUL(b, start)
	}
	return start
}

// lineAt parses the line of b that ends at the newline at end (p.crlf says whether b[start:end] holds a '\r' or
// an ESC byte), with what an earlier chunk left of its start, and returns where the next line starts.
func (p *Parser) lineAt(b []byte, start, end int) int {
	phys := p.physLine
	if p.opt.wrap > 0 { // a hard-wrapped paste: its pieces are joined first (wrap.go)
		phys = p.unwrap
	}
	if len(p.pending) > 0 || p.pendCut {
		p.addPending(b[start:end])
		p.crlf = p.crlf || hasSpecial(p.pending) // the line's start came with an earlier chunk
		phys(p.pending, p.pendCut)
		p.pending, p.pendCut = p.pending[:0], false
	} else if end-start > p.opt.MaxLine {
		phys(b[start:start+p.opt.MaxLine], true)
	} else {
		phys(b[start:end], false)
	}
	return end + 1
}

// SkipNUL is the index of the first byte of b at or after from that is not NUL, or len(b). NULs before a line are
// no part of it (a hole a truncated file leaves under its writer): the trace reader skips them too.
func SkipNUL(b []byte, from int) int {
	for from < len(b) && b[from] == 0 {
		from++
	}
	return from
}

// indexOrLen is the index of the first c in b at or after from, or len(b).
func indexOrLen(b []byte, from int, c byte) int {
	if i := bytes.IndexByte(b[from:], c); i >= 0 {
		return from + i
	}
	return len(b)
}

// hasSpecial reports whether line holds a '\r' or an ESC byte (progress bars, CRLF, ANSI colours).
func hasSpecial(line []byte) bool {
	return bytes.IndexByte(line, '\r') >= 0 || bytes.IndexByte(line, 0x1b) >= 0
}

func (p *Parser) addPending(b []byte) {
	room := p.opt.MaxLine - len(p.pending)
	if len(b) > room {
		b = b[:max(room, 0)]
		p.pendCut = true
	}
	p.pending = append(p.pending, b...)
}

// endLine parses an unfinished last line (input without a trailing newline); records stay open.
func (p *Parser) endLine() {
	if len(p.pending) > 0 && glogStart(p.pending) {
		p.facts.CutLine = true
	}
	if len(p.pending) > 0 || p.pendCut {
		p.crlf = hasSpecial(p.pending)
		if p.opt.wrap > 0 {
			p.unwrap(p.pending, p.pendCut)
		} else {
			p.physLine(p.pending, p.pendCut)
		}
		p.pending, p.pendCut = p.pending[:0], false
	}
	p.flushHeld()
}

// physLine handles one newline-terminated line; '\r' also ends a line (progress bars), CRLF is one end.
func (p *Parser) physLine(line []byte, cut bool) {
	p.lineNo++
	if !p.crlf {
		p.line(line, cut)
		return
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	for {
		cr := bytes.IndexByte(line, '\r')
		if cr < 0 {
			p.line(line, cut)
			return
		}
		if cr > 0 {
			p.line(line[:cr], false)
		}
		line = line[cr+1:]
	}
}

// glogStart reports a line that starts as a glog line does ("V1121 07:47:33.827000 …"), behind a torchrun rank
// prefix ("[rank0]:") if any: enough of it to tell a torch log line cut anywhere after its time stamp's seconds.
func glogStart(b []byte) bool {
	if bytes.HasPrefix(b, []byte("[rank")) {
		if i := bytes.Index(b, []byte("]:")); i > 0 && i < 16 {
			b = b[i+2:]
		}
	}
	const shape = "L0000 00:00:00" // level, month and day, the time to the second
	if len(b) < len(shape) || bytes.IndexByte([]byte("DIWECV"), b[0]) < 0 {
		return false
	}
	for i := 1; i < len(shape); i++ {
		if c := b[i]; shape[i] == '0' && (c < '0' || c > '9') || shape[i] != '0' && c != shape[i] {
			return false
		}
	}
	return true
}

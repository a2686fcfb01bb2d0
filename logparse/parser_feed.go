package logparse

import "bytes"

// Write feeds bytes. It never fails.
func (p *Parser) Write(b []byte) (int, error) {
	n := len(b)
	// nextCR / nextESC: where the next '\r' / ESC byte is in b (len(b) when none is left); each is searched
	// again only once passed, so a line is checked for them in O(1) and the chunk is scanned once per byte.
	nextCR, nextESC := indexOrLen(b, 0, '\r'), indexOrLen(b, 0, 0x1b)
	start := 0
	for start < len(b) {
		if b[start] == 0 && len(p.pending) == 0 && !p.pendCut {
			// NULs before a line are no part of it: a file truncated under its writer holds a hole of them
			// up to the writer's offset, then the next line written (copytruncate, `: > log`)
			if start = skipNUL(b, start); start == len(b) {
				break
			}
		}
		nl := bytes.IndexByte(b[start:], '\n')
		if nl < 0 {
			p.addPending(b[start:])
			break
		}
		end := start + nl
		p.crlf = nextCR < end || nextESC < end
		if len(p.pending) > 0 || p.pendCut {
			p.addPending(b[start:end])
			p.crlf = p.crlf || hasSpecial(p.pending) // the line's start came with an earlier chunk
			p.physLine(p.pending, p.pendCut)
			p.pending, p.pendCut = p.pending[:0], false
		} else if nl > p.opt.MaxLine {
			p.physLine(b[start:start+p.opt.MaxLine], true)
		} else {
			p.physLine(b[start:end], false)
		}
		start = end + 1
		if nextCR < start {
			nextCR = indexOrLen(b, start, '\r')
		}
		if nextESC < start {
			nextESC = indexOrLen(b, start, 0x1b)
		}
	}
	return n, nil
}

// skipNUL is the index of the first byte of b at or after from that is not NUL, or len(b).
func skipNUL(b []byte, from int) int {
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
		p.physLine(p.pending, p.pendCut)
		p.pending, p.pendCut = p.pending[:0], false
	}
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

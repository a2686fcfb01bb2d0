package logparse

// Flush ends the input: a final line without newline is parsed and every open record is emitted.
func (p *Parser) Flush() {
	p.endLine()
	p.FlushRecords()
}

// FlushRecords emits every open record (for a live stream that went idle); an unfinished line stays pending.
func (p *Parser) FlushRecords() {
	for _, k := range sortedKeys(p.chans) { // a fixed order: the same records come out in the same order
		ch := p.chans[k]
		p.close(&ch.log)
		p.close(&ch.bare)
	}
	p.resetCaches()
}

// FlushIdle emits the open records that no line joined after line mark (a value of Lines() taken earlier): a
// live stream's records whose channel went idle while other channels, or output on the same channel that does
// not continue them, go on. Every record notes its last line anyway, so this costs nothing per line; FlushIdle
// of Lines() is FlushRecords, but for a logged traceback that nothing ended yet (caught.go: what follows decides
// whether it was fatal). An unfinished line stays pending.
func (p *Parser) FlushIdle(mark int) {
	closed := false
	for _, k := range sortedKeys(p.chans) { // the order of FlushRecords
		ch := p.chans[k]
		for _, slot := range []**builder{&ch.log, &ch.bare} {
			if b := *slot; b != nil && b.rec.LastLine <= mark && !b.undecided() {
				p.close(slot)
				closed = true
			}
		}
	}
	if closed {
		p.resetCaches()
	}
}

// OldestOpen returns the last line of the open record with a known head (a graph break, a recompile, …: not
// plain output) that no line joined for the longest, the next one FlushIdle can complete; 0 when none is open.
func (p *Parser) OldestOpen() int {
	oldest := 0
	for _, ch := range p.chans {
		for _, b := range [2]*builder{ch.log, ch.bare} {
			if b != nil && b.head != headNone && !b.undecided() && (oldest == 0 || b.rec.LastLine < oldest) {
				oldest = b.rec.LastLine
			}
		}
	}
	return oldest
}

// resetCaches forgets the fast paths' memory of the last line (its prefix, builder and channel).
func (p *Parser) resetCaches() {
	p.lastRaw, p.lastB, p.lastSkip, p.lastCh = p.lastRaw[:0], nil, p.lastSkip[:0], nil
}

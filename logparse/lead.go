package logparse

import "bytes"

// lead holds the first lines of one channel of a part, whole (channel prefix included): they may continue a
// record the part before left open, so they are replayed through the joined parser once it is known.
type lead struct {
	prefix []byte  // log prefix of the held prefixed lines
	buf    []byte  // the held lines, one after the other: a part of plain output holds all of its lines, so
	ends   []int32 // one buffer (where each ends in it), not one allocation a line for the collector to scan
	num    []int32 // line numbers in the part
	seq    []int32 // places among the part's lines (Parser.seq)
	cut    []bool
	// inert: a bare line that starts nothing (no record head, strong or weak): with nothing open on its
	// channel it changes nothing but the channel's errAt (its logErrorAt), so the join does not replay it
	inert []bool
	errAt []int32
	// Past maxInertHeld leading inert lines (all held lines inert so far) a lead only counts them, with the
	// place and errAt of the last: a part of plain output holds a few KiB, not its text. When the join finds
	// something open that they would continue, the part is parsed again from the file (ParseFileParallel).
	dropped                  int
	droppedSeq, droppedErrAt int32
	runOver                  bool // a line that is not inert was held: the leading run is over
	// noChain: the held lines cannot be followed by the next exception of a chained traceback (the last non-blank
	// one was not a chain separator); false before any line is held
	noChain bool
	// noStack: the held lines cannot be followed by the next thread of a stack dump the part before left open (a
	// prefixed or C++ line ended it, or a traceback header started another record); false before any line is held
	noStack bool
}

// maxInertHeld is how many leading inert lines a lead holds before it only counts them.
const maxInertHeld = 1024

// add holds a line (inert: see lead, with its logErrorAt), or past maxInertHeld leading inert ones counts it.
func (l *lead) add(line []byte, num, seq int, cut, inert bool, errAt int) {
	if inert && !l.runOver && len(l.ends) >= maxInertHeld {
		l.dropped++
		l.droppedSeq, l.droppedErrAt = int32(seq), int32(errAt)
		return
	}
	l.runOver = l.runOver || !inert
	if l.buf == nil {
		l.buf = make([]byte, 0, 4096) // a held blank line is not nil (join: nil is a lead's end)
	}
	l.buf = append(l.buf, line...)
	l.ends = append(l.ends, int32(len(l.buf)))
	l.num = append(l.num, int32(num))
	l.seq = append(l.seq, int32(seq))
	l.cut = append(l.cut, cut)
	l.inert = append(l.inert, inert)
	l.errAt = append(l.errAt, int32(errAt))
}

// line returns held line j.
func (l *lead) line(j int) []byte {
	start := int32(0)
	if j > 0 {
		start = l.ends[j-1]
	}
	return l.buf[start:l.ends[j]]
}

// takeLead holds line (decoded as li, of channel ch) when it can continue a record of the previous part; it
// reports whether it did. The first line that cannot ends the channel's lead: what follows is parsed here.
func (p *Parser) takeLead(ch *channel, li *lineInfo, line []byte, cut bool) bool {
	if ch.leadDone {
		return false
	}
	k := chanKey{li.localRank, li.rank}
	l := p.leads[k]
	if l == nil {
		l = &lead{}
		p.leads[k] = l
	}
	switch li.style {
	case styleGlog, styleDate, styleTags:
		// a line with the same prefix continues the record (built or not), even with a weak head
		if strongHead(li.body) == headNone {
			if l.prefix == nil {
				l.prefix = append([]byte{}, li.prefix...)
			}
			// partition details carry prefixes of their own (parser.go: partitionDetail)
			if bytes.Equal(l.prefix, li.prefix) || detailShaped(li) {
				l.noChain, l.noStack = true, true
				l.add(line, p.lineNo, p.seq, cut, false, 0)
				return true
			}
		}
	case styleCpp: // a one-line record: what is open on the channel goes on after it
		l.noChain, l.noStack = true, true
		l.add(line, p.lineNo, p.seq, cut, false, 0)
		return true
	case styleBare:
		if at, _ := headInside(li.body); at <= 0 && strongHead(li.body) == headNone && !startsBareRecord(li.body) {
			if t := bytes.TrimSpace(li.body); len(t) > 0 {
				l.noChain = !bytes.HasPrefix(t, hChainCause) && !bytes.HasPrefix(t, hChainHandling)
			}
			if p.opt.SkipOther { // (bareLine: what it would open, on the line past its indentation or pod name)
				body := li.body[headIndent(li.body):]
				if h, _ := weakHead(body, li); h == headNone && strongHead(body) == headNone {
					l.add(line, p.lineNo, p.seq, cut, true, logErrorAt(li.body))
					return true
				}
			}
			l.add(line, p.lineNo, p.seq, cut, false, 0)
			return true
		}
		// a chained traceback goes on with "Traceback (most recent call last):" after its separator (which the
		// part before may have ended with): held while the held lines allow it
		if !l.noChain && bytes.HasPrefix(li.body, hTraceback) {
			l.noChain, l.noStack = true, true
			l.add(line, p.lineNo, p.seq, cut, false, 0)
			return true
		}
		// a faulthandler dump goes on with its next thread ("Thread 0x…", "Current thread 0x…": builder.startsNew),
		// which the part before may have left open: held while the held lines allow it (only bare lines that start
		// nothing, which a stack record takes in)
		if !l.noStack && (bytes.HasPrefix(li.body, hThread) || bytes.HasPrefix(li.body, hCurThread)) {
			l.noChain = true
			l.add(line, p.lineNo, p.seq, cut, false, 0)
			return true
		}
	}
	ch.leadDone, ch.leadSeq = true, p.seq
	ch.leadGoesOn = goesOn(li, li.body)
	if li.style == styleBare {
		at, _ := headInside(li.body)
		ch.leadBare = at <= 0 // a record start that leaves a prefixed record open (a traceback in its middle)
	}
	return false
}

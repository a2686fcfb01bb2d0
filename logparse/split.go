package logparse

import (
	"bytes"
	"io"
	"os"
	"sync"
)

// MinParallelSize is the smallest file parsed in parts (a tuning knob; tests lower it).
var MinParallelSize int64 = 32 << 20

// lead holds the first lines of one channel of a part: they may continue a record the part before left open.
type lead struct {
	bare   heldLines // unprefixed lines before any prefixed one (a traceback or first-line-only record going on)
	prefix []byte    // log prefix of the held prefixed lines
	lines  heldLines
}

type heldLines struct {
	body [][]byte
	num  []int // line numbers in the part
	cut  []bool
}

func (h *heldLines) add(body []byte, num int, cut bool) {
	h.body = append(h.body, append([]byte{}, body...))
	h.num = append(h.num, num)
	h.cut = append(h.cut, cut)
}

func (h *heldLines) into(b *builder, maxLines, part int) {
	for j, line := range h.body {
		b.addAt(maxLines, part, h.num[j], line, h.cut[j])
	}
}

// takeLead holds li when it can continue a record of the previous part; it reports whether it did.
func (p *Parser) takeLead(li lineInfo, cut bool) bool {
	k := chanKey{li.localRank, li.rank}
	if p.leadDone[k] {
		return false
	}
	l := p.leads[k]
	if l == nil {
		l = &lead{}
		p.leads[k] = l
	}
	switch li.style {
	case styleGlog, styleDate:
		if strongHead(li.body) == headNone && weakHead(li.body, li.style) == headNone {
			if l.prefix == nil {
				l.prefix = append([]byte{}, li.prefix...)
			}
			if bytes.Equal(l.prefix, li.prefix) {
				l.lines.add(li.body, p.lineNo, cut)
				return true
			}
		}
	case styleBare:
		if at, _ := headInside(li.body); at <= 0 && strongHead(li.body) == headNone && !startsBareRecord(li.body) {
			if l.prefix == nil {
				l.bare.add(li.body, p.lineNo, cut)
			}
			return true // after prefixed lines: user output inside a record, not built (SkipOther)
		}
	}
	p.leadDone[k] = true
	return false
}

// ParseFileParallel parses a regular file in n parts at once and emits the same records as Parse would (record
// line numbers included). Records cut by a part boundary are joined: each part holds the first lines of every
// channel that could continue an open record, and the parts are joined in order once all are read.
func ParseFileParallel(f *os.File, size int64, n int, opt Options, emit func(*Record)) error {
	if n < 2 || size < MinParallelSize {
		return Parse(io.NewSectionReader(f, 0, size), opt, emit)
	}
	bounds := []int64{0}
	buf := make([]byte, 64<<10)
	for i := 1; i < n; i++ {
		at := size * int64(i) / int64(n)
		m, _ := f.ReadAt(buf, at)
		nl := bytes.IndexByte(buf[:m], '\n')
		if nl < 0 || at+int64(nl)+1 <= bounds[len(bounds)-1] {
			continue
		}
		bounds = append(bounds, at+int64(nl)+1)
	}
	bounds = append(bounds, size)
	parts := make([]*Parser, len(bounds)-1)
	held := make([][]*Record, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i := range parts {
		i := i
		hold := func(r *Record) { held[i] = append(held[i], r) }
		if i == 0 {
			hold = emit // line numbers of part 0 need no offset: no need to wait
		}
		p := NewParser(opt, hold)
		p.part = i
		if i > 0 {
			p.leads, p.leadDone = map[chanKey]*lead{}, map[chanKey]bool{}
		}
		parts[i] = p
		wg.Add(1)
		go func() {
			defer wg.Done()
			if feedMapped(p, f, bounds[i], bounds[i+1]) {
				return
			}
			errs[i] = feed(p, io.NewSectionReader(f, bounds[i], bounds[i+1]-bounds[i]))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	// Join: parts[0] carries the open records forward; what it emits from now on may span parts.
	state := parts[0]
	state.emit = func(r *Record) { held[0] = append(held[0], r) }
	for _, pk := range parts[1:] {
		for k, l := range pk.leads {
			ch := state.chans[k]
			if ch == nil {
				ch = &channel{}
				state.chans[k] = ch
			}
			if len(l.bare.body) > 0 {
				if ch.bare != nil {
					l.bare.into(ch.bare, state.opt.MaxLines, pk.part)
				} else if ch.log != nil && ch.log.acceptsBare() {
					l.bare.into(ch.log, state.opt.MaxLines, pk.part)
				}
			}
			if l.prefix != nil {
				state.close(&ch.bare)
				if ch.log != nil && bytes.Equal(ch.log.prefix, l.prefix) {
					l.lines.into(ch.log, state.opt.MaxLines, pk.part)
				} else {
					state.close(&ch.log) // the held lines start a record of no known kind: not built
				}
			}
		}
		for k, ck := range pk.chans {
			if pk.leadDone[k] {
				if ch := state.chans[k]; ch != nil {
					state.close(&ch.log)
					state.close(&ch.bare)
				}
				state.chans[k] = ck
			}
		}
		pk.chans = map[chanKey]*channel{}
		state.lastCh = nil // state.chans changed under the cache
	}
	state.FlushRecords()
	off := make([]int, len(parts))
	for i := 1; i < len(parts); i++ {
		off[i] = off[i-1] + parts[i-1].lineNo
	}
	for _, rs := range held {
		for _, r := range rs {
			r.FirstLine += off[r.partFirst]
			r.LastLine += off[r.partLast]
			emit(r)
		}
	}
	return nil
}

// feed writes everything r yields into p and completes its last line (records stay open).
func feed(p *Parser, r io.Reader) error {
	buf := make([]byte, 256<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			p.Write(buf[:n])
		}
		if err != nil {
			p.endLine()
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

package logparse

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"
)

// MinParallelSize is the smallest file parsed in parts (a tuning knob; tests lower it).
var MinParallelSize int64 = 32 << 20

// onReparse, when set (tests), is called when a part is parsed again from the file.
var onReparse func()

// PartSize is the size of the parts a large file is cut into (a tuning knob; tests lower it). Smaller parts hold
// fewer parsed records waiting for the join (less live heap for the collector to mark); 8 MB measured best on
// bench/many.sh (4 MB no better, 32 MB 5% slower).
var PartSize int64 = 8 << 20

// ParseFileParallel parses a regular file in parts on `workers` goroutines and emits the same records as Parse
// would, in the same order, line numbers included. Records cut by a part boundary are joined: each part holds
// the first lines of every channel that could continue an open record, and they are replayed through the parser
// of the parts before. A file that shrinks while it is read gives the records of what was read and errChanged.
// The calling goroutine joins the parts in order as they complete and emits each part's
// records then, so emit (the caller's aggregation) runs while later parts are still being parsed; emit is only
// ever called from the calling goroutine.
func ParseFileParallel(f *os.File, size int64, workers int, opt Options, emit func(*Record)) error {
	if opt.wrap == 0 {
		head := make([]byte, min(size, headSize))
		n, _ := f.ReadAt(head, 0)
		opt.wrap = wrapOf(head[:n])
	}
	if workers < 2 || size < MinParallelSize || opt.wrap > 0 { // a hard-wrapped paste is read in one part
		// (a piece's rest may start the next part)
		return Parse(io.NewSectionReader(f, 0, size), opt, emit)
	}
	bounds := partBounds(f, size, max(int64(workers), (size+PartSize-1)/max(PartSize, 1)))
	n := len(bounds) - 1
	parts := make([]*Parser, n)
	held := make([][]*Record, n)
	errs := make([]error, n)
	done := make([]chan struct{}, n)
	for i := range done {
		done[i] = make(chan struct{})
	}
	var next atomic.Int64
	var stop, changed atomic.Bool
	var wg sync.WaitGroup
	// At most workers+1 parts are taken and not yet joined: when emit (the aggregation) is slower than the
	// parsing, the parsed parts' records wait for it in memory. A slot is taken before the part, so the parts
	// holding slots are always the lowest ones not joined and the one the join waits for is being parsed.
	slots, quit := make(chan struct{}, workers+1), make(chan struct{})
	// a joined part's record slice goes to a part parsed later: grown anew for each part, they were 2.7 MB of the
	// allocations of bench/many.sh's run
	spare := make(chan []*Record, workers+1)
	take := func() int {
		select {
		case slots <- struct{}{}:
			return int(next.Add(1) - 1)
		case <-quit: // the join stopped at an error
			return n
		}
	}
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var spares buffers // the buffers the worker's last part left, for its next one
			for i := take(); i < n && !stop.Load(); i = take() {
				select {
				case held[i] = <-spare:
				default:
				}
				p := NewParser(opt, func(r *Record) { held[i] = append(held[i], r) })
				p.part = i
				if i > 0 {
					p.leads = map[chanKey]*lead{}
				}
				p.buffers, spares = spares, buffers{}
				shrank, err := feedRange(p, f, bounds[i], bounds[i+1])
				// handed on before the join can touch p (which then grows its own again if it parses on)
				spares, p.buffers = p.buffers, buffers{}
				errs[i] = err
				if shrank {
					changed.Store(true)
				}
				parts[i] = p
				close(done[i])
			}
		}()
	}
	defer wg.Wait()         // the file stays open until no worker reads it
	off := make([]int, n+1) // off[i]: lines before part i
	fix := func(r *Record) {
		r.FirstLine += off[r.partFirst]
		r.LastLine += off[r.partLast]
		emit(r)
	}
	var state *Parser // part 0, carrying the records left open at the last joined boundary
	for i := range n {
		<-done[i]
		if errs[i] != nil {
			stop.Store(true)
			close(quit)
			return errs[i]
		}
		pk := parts[i]
		off[i+1] = off[i] + pk.lineNo
		if state != nil {
			state.facts.Merge(pk.facts)
		}
		if state == nil {
			state = pk
			for _, r := range held[i] {
				fix(r)
			}
		} else if !state.canJoin(pk) {
			// the part's plain output was only counted and would continue a record open before it: parse the
			// part again through the state, as a serial parse does (its own records and parser are dropped)
			state.emit, state.part, state.lineNo, state.crlf = fix, i, 0, false
			state.resetCaches()
			if onReparse != nil {
				onReparse()
			}
			shrank, err := feedRange(state, f, bounds[i], bounds[i+1])
			if err != nil {
				stop.Store(true)
				close(quit)
				return err
			}
			if shrank {
				changed.Store(true)
			}
		} else {
			// The records the join ends and the part's own come out in the order a serial parse ends them.
			var joined []*Record
			state.emit = func(r *Record) { joined = append(joined, r) }
			state.join(pk)
			own := held[i]
			for len(joined) > 0 || len(own) > 0 {
				if len(own) == 0 || len(joined) > 0 && joined[0].closedAt <= own[0].closedAt {
					fix(joined[0])
					joined = joined[1:]
				} else {
					fix(own[0])
					own = own[1:]
				}
			}
		}
		clear(held[i]) // the records are the consumer's now
		select {
		case spare <- held[i][:0]:
		default:
		}
		parts[i], held[i] = nil, nil
		<-slots
	}
	state.emit = fix
	state.FlushRecords()
	if opt.OnFacts != nil {
		opt.OnFacts(state.facts)
	}
	if changed.Load() {
		return errChanged
	}
	return nil
}

// errChanged: the file shrank while it was read (rotated, truncated or rewritten under the tool); what could be
// read was parsed and emitted.
var errChanged = errors.New("changed while being read")

// feedRange feeds bytes from..to of f to p, through memory maps when it can (shrank: the file got shorter under
// them), else read.
func feedRange(p *Parser, f *os.File, from, to int64) (shrank bool, err error) {
	if mapped, shrank := feedMapped(p, f, from, to); mapped {
		return shrank, nil
	}
	return false, feed(p, io.NewSectionReader(f, from, to-from))
}

// partBounds cuts [0, size) into about n parts that start at line starts.
func partBounds(f *os.File, size, n int64) []int64 {
	bounds := []int64{0}
	buf := make([]byte, 64<<10)
	for i := int64(1); i < n; i++ {
		at := size * i / n
		m, _ := f.ReadAt(buf, at)
		nl := bytes.IndexByte(buf[:m], '\n')
		if nl < 0 || at+int64(nl)+1 <= bounds[len(bounds)-1] {
			continue
		}
		bounds = append(bounds, at+int64(nl)+1)
	}
	return append(bounds, size)
}

// nothingOpen reports whether a channel has no record open that a bare line could continue.
func nothingOpen(ch *channel) bool {
	return ch == nil || ch.bare == nil && (ch.log == nil || !ch.log.acceptsBare())
}

// canJoin reports whether the leads of pk can be replayed through p: not when a lead counted lines it did not
// hold (a part of plain output) and p has a record open on that channel that they would continue.
func (p *Parser) canJoin(pk *Parser) bool {
	for k, l := range pk.leads {
		if l.dropped > 0 && !nothingOpen(p.chans[k]) {
			return false
		}
	}
	return true
}

// join replays the leads of the next part pk through p (which holds the records left open before pk), as a
// serial parse would have read them, and takes over pk's open records. Everything happens in the order of the
// part's lines, so the records it closes come out in the order a serial parse closes them.
func (p *Parser) join(pk *Parser) {
	p.part, p.crlf = pk.part, false // the lines were already split at '\r' and stripped of ANSI
	p.resetCaches()
	// Events in line order, as a serial parse meets them: the held lines of every channel, and for a channel
	// whose lead ended, its first line that could not continue (where the records open before it end).
	type event struct {
		seq   int
		k     chanKey
		line  []byte // nil: the lead of channel k ended (log false), or a record head came after it (log)
		num   int    // of line, in the part
		cut   bool
		log   bool
		inert bool // lines not replayed were here: a bare line clears the fast path's caches (parser.go: line)
	}
	var evs []event
	for k, l := range pk.leads {
		j := 0
		if ch := p.chans[k]; nothingOpen(ch) {
			// nothing open that a bare line could continue: the inert lines in front (held or only counted)
			// change nothing but errAt, so they are not parsed twice
			for j < len(l.ends) && l.inert[j] {
				j++
			}
			seq, errAt := int32(-1), int32(0)
			if j > 0 {
				seq, errAt = l.seq[j-1], l.errAt[j-1]
			}
			if l.dropped > 0 && j <= maxInertHeld { // the counted ones came after the held ones skipped
				seq, errAt = l.droppedSeq, l.droppedErrAt
			}
			if seq >= 0 {
				if ch == nil {
					ch = &channel{}
					p.chans[k] = ch
					p.resetCaches()
				}
				ch.errAt = int(errAt)
				evs = append(evs, event{seq: int(seq), k: k, inert: true})
			}
		}
		for ; j < len(l.ends); j++ {
			evs = append(evs, event{seq: int(l.seq[j]), k: k, line: l.line(j), num: int(l.num[j]), cut: l.cut[j]})
		}
	}
	for k, ck := range pk.chans {
		if ck.leadDone {
			evs = append(evs, event{seq: ck.leadSeq, k: k})
			if ck.leadBare && ck.logAt > 0 {
				evs = append(evs, event{seq: ck.logAt, k: k, log: true})
			}
		}
	}
	slices.SortFunc(evs, func(a, b event) int { return cmp.Compare(a.seq, b.seq) })
	waiting := map[chanKey]*builder{} // prefixed records a bare line did not end: the next record head ends them
	for _, e := range evs {
		p.seq = e.seq // ending a record needs only where (closedAt), not a line number
		switch {
		case e.line != nil:
			p.lineNo, p.seq = e.num, e.seq-1 // line counts it again
			p.line(e.line, e.cut)
			continue
		case e.inert:
			p.lastRaw, p.lastB, p.lastSkip = p.lastRaw[:0], nil, p.lastSkip[:0]
			continue
		case e.log: // after what that line ends in the part (its channel's unprefixed record)
			b := waiting[e.k]
			p.closeLate = 1
			p.close(&b)
			p.closeLate = 0
			continue
		}
		ck := pk.chans[e.k]
		joinCaught(p.chans[e.k], ck)
		if ch := p.chans[e.k]; ch != nil { // in the order the line that ended the lead ends them
			p.close(&ch.bare)
			switch {
			case !ck.leadBare || ch.log != nil && ch.log.acceptsBare():
				p.close(&ch.log)
			case ck.logAt > 0:
				waiting[e.k], ch.log = ch.log, nil
			default: // no record head on the channel in this part: the record goes on
				ck.log, ck.skip = ch.log, append(ck.skip[:0], ch.skip...)
			}
		}
		p.chans[e.k] = ck
		p.resetCaches() // p.chans changed under them
	}
	pk.chans = map[chanKey]*channel{}
}

func sortedKeys[V any](m map[chanKey]V) []chanKey {
	keys := make([]chanKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b chanKey) int { return cmp.Or(cmp.Compare(a.local, b.local), cmp.Compare(a.rank, b.rank)) })
	return keys
}

// feed writes everything r yields into p and completes its last line (records stay open).
func feed(p *Parser, r io.Reader) error {
	n := int64(256 << 10)
	if sr, ok := r.(*io.SectionReader); ok { // a small file needs no 256 KiB buffer (5,000 of them made 1.25 GB)
		n = min(n, max(sr.Size(), 512))
	}
	buf := make([]byte, n)
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

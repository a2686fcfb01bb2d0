package trace

import (
	"bytes"
	"maps"
	"slices"

	"github.com/torchtriage/torchtriage/logparse"
)

// Reader reads a TORCH_TRACE file while it is written: feed it the bytes as they arrive (Write), take the
// records that can no longer change (Take) and end it when the file is complete (Close). Its records are
// Parse's, in the same order: the records of every Take, then Take after Close, are Parse's of the whole
// file; Records is what Parse would give of the complete lines read so far, less what Take handed out (a
// reader keeps only the records it did not hand out). It is not safe for concurrent use.
type Reader struct {
	st     *traceState
	line   []byte // the line being read: its first bytes (up to keep)
	n      int    // its length so far
	keep   int    // how much of a line is kept: all of one readLines reads whole, the start of a longer one
	closed bool
}

// traceBuf is readLines' buffer: a line that fits in it is read whole; a longer one is cut at Options.MaxLine.
const traceBuf = 256 << 10

// NewReader starts reading a TORCH_TRACE file; opt is Parse's (its OnFacts is called at Close).
func NewReader(opt logparse.Options) *Reader {
	st := newTraceState(opt)
	return &Reader{st: st, keep: max(traceBuf, st.opt.MaxLine)}
}

// Write reads the bytes that follow those written before; each line is read when its end arrives.
func (t *Reader) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if t.n == 0 && p[0] == 0 {
			p = p[logparse.SkipNUL(p, 0):] // NULs before a line are no part of it (readLines)
			continue
		}
		i := bytes.IndexByte(p, '\n')
		if i >= 0 && t.n == 0 { // a whole line: read where it lies
			t.readLine(p[:i], i)
			p = p[i+1:]
			continue
		}
		part := p
		if i >= 0 {
			part = p[:i]
		}
		if room := t.keep - len(t.line); room > 0 {
			t.line = append(t.line, part[:min(len(part), room)]...)
		}
		t.n += len(part)
		if i < 0 {
			break
		}
		t.endLine()
		p = p[i+1:]
	}
	return n, nil
}

// endLine reads the line read to its end as readLines does: whole when it fit readLines' buffer with its newline,
// else its first MaxLine bytes, cut.
func (t *Reader) endLine() {
	t.readLine(t.line, t.n)
	t.line, t.n = t.line[:0], 0
}

// readLine reads a line of n bytes, of which line holds the first (all of them, or at least MaxLine).
func (t *Reader) readLine(line []byte, n int) {
	cut := false
	if n >= traceBuf {
		max := t.st.opt.MaxLine
		cut = max <= traceBuf || n > max
		line = line[:min(len(line), max)]
	}
	t.st.line(trimEnd(line), cut)
}

// trimEnd is bytes.TrimRight(line, "\r\n") without its cutset's table made each time.
func trimEnd(line []byte) []byte {
	n := len(line)
	for n > 0 && (line[n-1] == '\n' || line[n-1] == '\r') {
		n--
	}
	return line[:n]
}

// Close ends the file: an unfinished last line is read as the end of the file, and the records only the end
// tells are made. Take hands them out.
func (t *Reader) Close() {
	if t.closed {
		return
	}
	t.closed = true
	if t.n > 0 {
		t.endLine()
	}
	t.st.end()
	t.st.payload.release()
}

// Take returns the records made since the last call that nothing read later can change, in Parse's order
// (a record waits while one before it may still change). What may change until later lines come: every
// record's rank until an envelope states the file's rank (the first one that does gives it to them all); a
// compile failure, which a later compile of the process marks caught; a DDPOptimizer split, until a record of
// another compile follows it (its children come within its compile). After Close nothing waits.
func (t *Reader) Take() []*logparse.Record {
	st := t.st
	if !t.closed && st.envRank < 0 {
		return nil
	}
	recs := st.recs
	end := len(recs)
	if !t.closed {
		lastCompile := -1
		for i := len(recs) - 1; i >= 0; i-- {
			if recs[i].Kind == logparse.KindCompile {
				lastCompile = i
				break
			}
		}
		for i := 0; i < len(recs); i++ {
			r := recs[i]
			if failed(r) {
				if i > lastCompile {
					end = i
					break
				}
				r.Error.Caught, r.Kind = true, logparse.KindException // as wentOn marks it at the end
			}
			if r == st.ddpSplit && !otherCompileAfter(recs[i+1:], r.CompileID) {
				end = i
				break
			}
		}
		for _, r := range recs[:end] {
			r.Rank = st.envRank
		}
	}
	// the records handed out are no longer kept: what Close still does to records (wentOn, the rank) it has done
	// to them, and a run that writes its trace for hours holds its aggregate, not its records
	st.recs = append([]*logparse.Record(nil), recs[end:]...)
	return recs[:end:end]
}

// failed is a compile failure wentOn marks caught when a later compile follows it.
func failed(r *logparse.Record) bool {
	return r.Error != nil && (r.Kind == logparse.KindCompileError || r.Kind == logparse.KindRuntimeError)
}

func otherCompileAfter(recs []*logparse.Record, cid logparse.CompileID) bool {
	for _, r := range recs {
		if r.CompileID.Valid() && r.CompileID != cid {
			return true
		}
	}
	return false
}

// Records returns what Parse would give of the complete lines read so far (after Close, of the whole file),
// less what Take handed out: copies (reading on changes none of them).
func (t *Reader) Records() []*logparse.Record {
	if t.closed {
		return cloneRecords(t.st.recs)
	}
	return t.st.clone().end()
}

// Facts is what the lines read so far say of the run (the torch version, that it is a trace).
func (t *Reader) Facts() logparse.Facts { return t.st.facts() }

// clone is a copy of the state that reading on in it changes nothing of st: its records are copies.
func (st *traceState) clone() *traceState {
	c := *st
	c.opt.OnFacts = nil
	c.strs, c.pending, c.pendLine = maps.Clone(st.strs), maps.Clone(st.pending), maps.Clone(st.pendLine)
	c.frameFn, c.metricsOf, c.lastOf = maps.Clone(st.frameFn), maps.Clone(st.metricsOf), maps.Clone(st.lastOf)
	c.whenOf = maps.Clone(st.whenOf)
	c.payload = st.payload.clone()
	c.restarts = cloneRecords(st.restarts)
	c.recs = cloneRecords(st.recs)
	c.recs = c.recs[:len(c.recs):len(c.recs)]
	c.emit = func(r *logparse.Record) { c.recs = append(c.recs, r) }
	if i := slices.Index(st.recs, st.ddpSplit); i >= 0 {
		c.ddpSplit = c.recs[i]
	} else if st.ddpSplit != nil {
		c.ddpSplit = cloneRecord(st.ddpSplit)
	}
	return &c
}

func cloneRecords(recs []*logparse.Record) []*logparse.Record {
	out := make([]*logparse.Record, len(recs))
	for i, r := range recs {
		out[i] = cloneRecord(r)
	}
	return out
}

// cloneRecord copies a record with the parts the end of a trace changes (its rank, a failure's caught mark, a
// DDP split's submodules).
func cloneRecord(r *logparse.Record) *logparse.Record {
	c := *r
	if r.Error != nil {
		e := *r.Error
		c.Error = &e
	}
	if r.DDP != nil {
		d := *r.DDP
		d.Submodules = slices.Clone(r.DDP.Submodules)
		c.DDP = &d
	}
	return &c
}

package session

import (
	"bytes"
	"slices"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/session/lineidx"
)

// LogWriter indexes streams into a Log's lines. An input with a file (NewFileLogWriter) is only indexed: the
// bytes written must be the file's, in order from its start; an input without one keeps its bytes.
type LogWriter struct {
	buf   Log
	pend  []pending // per input, its unfinished line
	sizes []int64   // per input, the bytes written
	// a live run's writer notes its last non-blank line (see TrackLast)
	track bool
	last  string
	lastN int // non-blank lines so far
}

// pending is what a writer keeps of an unfinished line: where it starts, its head (for the rank prefix and
// the last line) and its tail (a progress bar's latest state after '\r'): never more than a few KiB.
type pending struct {
	start      int64
	head, tail []byte
	cr, any    bool
}

const (
	headKeep = 2 * maxLastText // a line's first bytes kept while it is unfinished
	tailKeep = 2 * maxLastText // and its last
)

func (p *pending) add(data []byte) {
	p.any = true
	if len(p.head) < headKeep {
		p.head = append(p.head, data[:min(len(data), headKeep-len(p.head))]...)
	}
	if bytes.IndexByte(data, '\r') >= 0 {
		p.cr = true
	}
	if len(data) >= tailKeep {
		p.tail = append(p.tail[:0], data[len(data)-tailKeep:]...)
		return
	}
	if over := len(p.tail) + len(data) - tailKeep; over > 0 {
		p.tail = p.tail[:copy(p.tail, p.tail[over:])]
	}
	p.tail = append(p.tail, data...)
}

// shown is the line as Last shows it (see lastText).
func (p *pending) shown() string {
	if p.cr {
		return lastText(p.tail)
	}
	return lastText(p.head)
}

// NewLogWriter starts a log of the named inputs whose bytes it keeps (tests, inputs without a file).
func NewLogWriter(inputs ...string) *LogWriter { return NewFileLogWriter(inputs, nil) }

// NewFileLogWriter starts a log of the named inputs; paths[i], when not "", is the file input i's bytes are
// (written to) and are read back from: the writer then keeps none of them.
func NewFileLogWriter(inputs, paths []string) *LogWriter {
	n := len(inputs)
	w := &LogWriter{pend: make([]pending, n), sizes: make([]int64, n)}
	w.buf = Log{Inputs: inputs, inSegs: make([][]int32, n), marks: make([]lineidx.Offsets, n), long: make([][]mark, n), lines: make([]int32, n),
		ends: make([]int64, n), paths: make([]string, n), mem: make([][]byte, n)}
	copy(w.buf.paths, paths)
	return w
}

// UseFile makes input i read back from path (when not "") instead of keeping its bytes; only before its first
// bytes (later calls change nothing): a live run's stream is its file in the run directory.
func (w *LogWriter) UseFile(i int, path string) {
	if i >= 0 && i < len(w.pend) && w.sizes[i] == 0 && path != "" {
		w.buf.paths[i] = path
	}
}

// Lines returns how many lines (headers excluded) were written so far.
func (w *LogWriter) Lines() int {
	n := 0
	for _, l := range w.buf.lines {
		n += int(l)
	}
	return n
}

// TrackLast makes the writer note the last non-blank line it writes (Last): a live run's sign of life.
func (w *LogWriter) TrackLast() { w.track = true }

// Last returns the last non-blank line written (see lastText) and how many non-blank lines came so far; both
// stay zero unless TrackLast was called.
func (w *LogWriter) Last() (string, int) { return w.last, w.lastN }

// Unfinished returns input i's unfinished line as Last would show it ("" when it is blank).
func (w *LogWriter) Unfinished(i int) string {
	if i < 0 || i >= len(w.pend) {
		return ""
	}
	return w.pend[i].shown()
}

// Write adds a chunk of input i; an unfinished last line waits for its end.
func (w *LogWriter) Write(i int, data []byte) {
	if i < 0 || i >= len(w.pend) {
		return
	}
	if w.buf.paths[i] == "" {
		w.buf.mem[i] = append(w.buf.mem[i], data...)
	}
	base := w.sizes[i]
	w.sizes[i] += int64(len(data))
	p := &w.pend[i]
	for at := 0; at < len(data); {
		nl := bytes.IndexByte(data[at:], '\n')
		if nl < 0 {
			if !p.any {
				p.start = base + int64(at)
			}
			p.add(data[at:])
			return
		}
		line := data[at : at+nl]
		if p.any {
			p.add(line)
			w.line(i, p.start, base+int64(at+nl), p)
			*p = pending{head: p.head[:0], tail: p.tail[:0]}
		} else {
			w.lineBytes(i, base+int64(at), line)
		}
		at += nl + 1
	}
}

// lineBytes adds a whole line that came in one chunk.
func (w *LogWriter) lineBytes(i int, start int64, line []byte) {
	p := pending{head: line[:min(len(line), headKeep)], any: true}
	if w.track && bytes.IndexByte(line, '\r') >= 0 {
		p.cr, p.tail = true, line[max(len(line)-tailKeep, 0):]
	}
	w.line(i, start, start+int64(len(line)), &p)
}

// Flush ends every unfinished line.
func (w *LogWriter) Flush() {
	for i := range w.pend {
		if p := &w.pend[i]; p.any {
			w.line(i, p.start, w.sizes[i], p)
			*p = pending{}
		}
	}
}

// line adds input i's line from start to end (its '\n' excluded); p holds its head and tail.
func (w *LogWriter) line(i int, start, end int64, p *pending) {
	b := &w.buf
	if b.lines[i]%markEvery == 0 {
		b.marks[i].Append(start)
	}
	w.rank(lineRank(p.head))
	w.extend(int16(i), b.lines[i])
	b.lines[i]++
	b.ends[i] = end
	if end-start > maxLineText { // the next line is marked too: reading this one never looks for its end
		b.long[i] = append(b.long[i], mark{line: b.lines[i], off: end + 1})
	}
	if w.track {
		if text := p.shown(); text != "" {
			w.last, w.lastN = text, w.lastN+1
		}
	}
}

// rankHead is how much of a line's start its rank prefix may take (a paste's head, srun's label, [rankN]:).
const rankHead = 256

// lineRank is the rank of a line starting with head (-1 when none), as the cleaned line shows it.
func lineRank(head []byte) int16 {
	head = head[:min(len(head), rankHead)]
	if bytes.IndexByte(head, 0x1b) >= 0 || bytes.IndexByte(head, '\t') >= 0 || bytes.IndexByte(head, '\r') >= 0 {
		head = []byte(Clean(string(bytes.TrimSuffix(head, []byte("\r")))))
	}
	r, _ := logparse.LineRank(head)
	return int16(max(min(r, 32767), -1))
}

// rank records the next line's rank.
func (w *LogWriter) rank(r int16) {
	b := &w.buf
	b.ranks.Append(max(r, lineidx.None)) // views read only the lines before
	if r < 0 {
		return
	}
	if k, found := slices.BinarySearch(b.rankSet, int(r)); !found {
		b.rankSet = slices.Insert(slices.Clip(b.rankSet), k, int(r)) // views keep the set they got
	}
}

// extend adds the next line (of input in, its line number line; in -1: header number line) to the segments.
func (w *LogWriter) extend(in int16, line int32) {
	b := &w.buf
	if t := &b.tail; t.n > 0 && t.in == in && in >= 0 && t.line+t.n == line {
		t.n++
		b.n++
		return
	}
	if b.tail.n > 0 {
		b.segs = append(b.segs, b.tail)
	}
	b.tail = segment{pos: int32(b.n), n: 1, in: in, line: line}
	if in >= 0 {
		b.inSegs[in] = append(b.inSegs[in], int32(len(b.segs)))
	}
	b.n++
}

// Header adds a line of the tool's own (an input's name).
func (w *LogWriter) Header(text string) {
	b := &w.buf
	b.headers = append(b.headers, text)
	w.rank(-1)
	w.extend(-1, int32(len(b.headers)-1))
}

// View returns the log as it is now; later writes do not change it.
func (w *LogWriter) View() Log {
	b := w.buf
	b.segs, b.headers, b.marks = slices.Clip(b.segs), slices.Clip(b.headers), slices.Clone(b.marks)
	b.inSegs, b.long, b.mem = clipEach(b.inSegs), clipEach(b.long), clipEach(b.mem)
	b.lines, b.ends = slices.Clone(b.lines), slices.Clone(b.ends)
	return b
}

// clipEach is a copy of s whose slices cannot be appended to in place (a view's, while the writer appends).
func clipEach[T any](s [][]T) [][]T {
	out := make([][]T, len(s))
	for i, x := range s {
		out[i] = slices.Clip(x)
	}
	return out
}

package session

import (
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
)

// maxLineText bounds the bytes of a line a LogLine holds: a longer line shows its first maxLineText bytes.
const maxLineText = 64 << 10

// Line returns line i (read from its file).
func (b Log) Line(i int) LogLine { return b.At([]int{i})[0] }

// Lines returns lines from to to (exclusive), clamped to the log.
func (b Log) Lines(from, to int) []LogLine {
	from, to = max(from, 0), min(to, b.n)
	if from >= to {
		return nil
	}
	pos := make([]int, to-from)
	for k := range pos {
		pos[k] = from + k
	}
	return b.At(pos)
}

// At returns the lines at the given positions (ascending; any order works, ascending reads least). A line
// its file no longer has (cut or removed since) reads as a note saying so.
func (b Log) At(pos []int) []LogLine {
	out := make([]LogLine, len(pos))
	rd := lineReader{log: &b, in: -1}
	defer rd.close()
	for k, p := range pos {
		if p < 0 || p >= b.n {
			out[k] = LogLine{Input: -1, Rank: -1}
			continue
		}
		s := b.segAt(p)
		if s.in < 0 {
			out[k] = LogLine{Text: b.headers[s.line], Input: -1, Rank: -1, Header: true}
			continue
		}
		raw, err := rd.read(int(s.in), s.line+int32(p)-s.pos)
		text := Clean(string(bytes.TrimSuffix(raw, []byte("\r"))))
		if err != nil {
			text = "[torchtriage: this line cannot be read back from " + b.paths[s.in] + ": " + err.Error() + "]"
		}
		out[k] = LogLine{Text: text, Input: s.in, Rank: int16(b.Rank(p))}
	}
	return out
}

// Matches is the positions (0..n-1, in order) of every shown line that contains q (case-insensitive unless q has
// capitals), at mapping a position to its line, as Search reads them: the log view's "match i of N".
func (b Log) Matches(q string, n int, at func(int) int) []int {
	fold := strings.ToLower(q) == q
	hits := []int{}
	const chunk = 4096
	for k := 0; k < n; k += chunk {
		var pos []int
		for i := k; i < min(k+chunk, n); i++ {
			pos = append(pos, at(i))
		}
		order := slices.Clone(pos)
		slices.Sort(order)
		lines := b.At(order)
		for x, p := range pos {
			y, _ := slices.BinarySearch(order, p)
			text := lines[y].Text
			if fold {
				text = strings.ToLower(text)
			}
			if strings.Contains(text, q) {
				hits = append(hits, k+x)
			}
		}
	}
	return hits
}

// lineReader reads an input's lines in order, starting again at the nearest mark when asked for one behind it
// or far ahead.
type lineReader struct {
	log   *Log
	in    int
	file  *os.File
	next  int32 // the line that starts at off
	off   int64
	buf   []byte // the input's bytes from bufAt on
	bufAt int64
	err   error
}

func (r *lineReader) close() {
	if r.file != nil {
		r.file.Close()
	}
}

// read returns line l of input in (without its '\n', at most maxLineText bytes).
func (r *lineReader) read(in int, l int32) ([]byte, error) {
	if in != r.in {
		r.close()
		*r = lineReader{log: r.log, in: in, next: -1, buf: r.buf[:0]}
		if p := r.log.paths[in]; p != "" {
			r.file, r.err = os.Open(p)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if l < r.next || r.next < 0 || l-r.next > markEvery {
		k := l / markEvery
		r.next, r.off = k*markEvery, r.log.marks[in].At(int(k))
		ls := r.log.long[in] // a line after a long one nearer l
		if j, found := slices.BinarySearchFunc(ls, l, func(m mark, l int32) int { return int(m.line - l) }); found || j > 0 {
			if !found {
				j--
			}
			if ls[j].line > r.next {
				r.next, r.off = ls[j].line, ls[j].off
			}
		}
	}
	for r.next < l {
		end, err := r.lineEnd(r.next, r.off)
		if err != nil {
			return nil, err
		}
		r.off, r.next = end+1, r.next+1
	}
	end, err := r.lineEnd(r.next, r.off)
	if err != nil {
		return nil, err
	}
	line, err := r.bytes(r.off, min(end, r.off+maxLineText))
	r.off, r.next = end+1, r.next+1
	return line, err
}

// lineEnd returns where line l, starting at off, ends (its '\n', or the input's end). A mark on the next line
// (every long line has one) says without reading.
func (r *lineReader) lineEnd(l int32, off int64) (int64, error) {
	if next := l + 1; next%markEvery == 0 && int(next/markEvery) < r.log.marks[r.in].Len() {
		return r.log.marks[r.in].At(int(next/markEvery)) - 1, nil
	}
	ls := r.log.long[r.in]
	if k, found := slices.BinarySearchFunc(ls, l+1, func(m mark, l int32) int { return int(m.line - l) }); found {
		return ls[k].off - 1, nil
	}
	limit := r.log.ends[r.in]
	for at := off; at < limit; {
		chunk, err := r.bytes(at, min(at+64<<10, limit))
		if i := bytes.IndexByte(chunk, '\n'); i >= 0 {
			return at + int64(i), nil // a file cut after this line still has it
		}
		if err != nil {
			return 0, err
		}
		at += int64(len(chunk))
	}
	return limit, nil
}

// bytes returns the input's bytes from..to, from the buffer or read into it; fewer only with an error (those
// the file still has).
func (r *lineReader) bytes(from, to int64) ([]byte, error) {
	if from >= r.bufAt && to <= r.bufAt+int64(len(r.buf)) {
		return r.buf[from-r.bufAt : to-r.bufAt], nil
	}
	if r.file == nil {
		m := r.log.mem[r.in]
		if to > int64(len(m)) {
			return m[min(from, int64(len(m))):], io.ErrUnexpectedEOF
		}
		return m[from:to], nil
	}
	size := max(int(to-from), 64<<10)
	if cap(r.buf) < size {
		r.buf = make([]byte, size)
	}
	r.buf = r.buf[:size]
	n, err := r.file.ReadAt(r.buf, from)
	r.buf, r.bufAt = r.buf[:n], from
	if int64(n) < to-from {
		if err == nil || err == io.EOF {
			err = errCut
		}
		return r.buf, err
	}
	return r.buf[:to-from], nil
}

// errCut says a file is shorter than the bytes indexed from it (cut or rewritten since).
var errCut = errors.New("the file is shorter than when it was read (cut or rewritten since)")

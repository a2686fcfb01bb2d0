package tui

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// logLine is one line of a run's combined output.
type logLine struct {
	text   string
	input  int16 // index into logBuffer.inputs; -1 for headers the TUI adds
	rank   int16 // from a [rankN]: / [defaultN]: prefix, -1 when none
	header bool
}

// logBuffer is a run's output as lines, with an index from (input, line number) to the line, so that a finding's
// evidence can jump to its records. A logBuffer handed to the model is a view: its slices are only appended to
// beyond their length by the feed, never changed within it.
type logBuffer struct {
	lines  []logLine
	inputs []string  // the input names records carry (Evidence.Input)
	index  [][]int32 // index[input][lineNumber-1] = position in lines
}

// find returns the position of an input's line (1-based), or -1.
func (b logBuffer) find(input string, line int) int {
	for i, name := range b.inputs {
		if name == input && line >= 1 && line <= len(b.index[i]) {
			return int(b.index[i][line-1])
		}
	}
	return -1
}

// ranks lists the ranks that appear in line prefixes, sorted.
func (b logBuffer) ranks() []int {
	seen := map[int16]bool{}
	var out []int
	for _, l := range b.lines {
		if l.rank >= 0 && !seen[l.rank] {
			seen[l.rank] = true
			out = append(out, int(l.rank))
		}
	}
	slices.Sort(out)
	return out
}

// logWriter splits streams into lines for a logBuffer.
type logWriter struct {
	buf     logBuffer
	partial [][]byte
}

func newLogWriter(inputs ...string) *logWriter {
	return &logWriter{buf: logBuffer{inputs: inputs, index: make([][]int32, len(inputs))}, partial: make([][]byte, len(inputs))}
}

// write adds a chunk of input i; an unfinished last line waits for its end.
func (w *logWriter) write(i int, data []byte) {
	if i < 0 || i >= len(w.partial) {
		return
	}
	for len(data) > 0 {
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			w.partial[i] = append(w.partial[i], data...)
			return
		}
		line := data[:nl]
		if len(w.partial[i]) > 0 {
			line = append(w.partial[i], line...)
			w.partial[i] = w.partial[i][:0]
		}
		w.add(i, clean(string(bytes.TrimSuffix(line, []byte("\r")))))
		data = data[nl+1:]
	}
}

// flush ends every unfinished line.
func (w *logWriter) flush() {
	for i, p := range w.partial {
		if len(p) > 0 {
			w.add(i, clean(string(p)))
			w.partial[i] = nil
		}
	}
}

func (w *logWriter) add(i int, text string) {
	w.buf.index[i] = append(w.buf.index[i], int32(len(w.buf.lines)))
	w.buf.lines = append(w.buf.lines, logLine{text: text, input: int16(i), rank: lineRank(text)})
}

// header adds a line of the TUI's own (an input's name).
func (w *logWriter) header(text string) {
	w.buf.lines = append(w.buf.lines, logLine{text: text, input: -1, rank: -1, header: true})
}

// view returns the buffer as it is now; later writes do not change it.
func (w *logWriter) view() logBuffer {
	b := w.buf
	b.lines = b.lines[:len(b.lines):len(b.lines)]
	b.index = make([][]int32, len(w.buf.index))
	for i, x := range w.buf.index {
		b.index[i] = x[:len(x):len(x)]
	}
	return b
}

// lineRank reads the rank of a "[rank1]:" or torchrun "[default1]:" prefix.
func lineRank(s string) int16 {
	for _, p := range []string{"[rank", "[default"} {
		if strings.HasPrefix(s, p) {
			rest := s[len(p):]
			end := strings.IndexByte(rest, ']')
			if end <= 0 || end > 5 {
				return -1
			}
			n, err := strconv.Atoi(rest[:end])
			if err != nil {
				return -1
			}
			if p == "[default" && strings.HasPrefix(rest[end+1:], ":[rank") {
				return lineRank(rest[end+2:])
			}
			return int16(n)
		}
	}
	return -1
}

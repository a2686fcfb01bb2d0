package session

import (
	"bytes"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/logparse"
)

// LogLine is one line of a run's combined output.
type LogLine struct {
	Text   string
	Input  int16 // index into Log.Inputs; -1 for headers added by the tool
	Rank   int16 // from the line's rank prefix (logparse's decoder), -1 when none
	Header bool
}

// Log is a run's output as lines, with an index from (input, line number) to the line, so that a finding's
// evidence can jump to its records. A Log handed out is a view: its slices are only appended to beyond their
// length by the writer, never changed within it.
type Log struct {
	Lines  []LogLine
	Inputs []string  // the input names records carry (Evidence.Input)
	index  [][]int32 // index[input][lineNumber-1] = position in Lines
}

// Find returns the position of an input's line (1-based), or -1.
func (b Log) Find(input string, line int) int {
	for i, name := range b.Inputs {
		if name == input && line >= 1 && line <= len(b.index[i]) {
			return int(b.index[i][line-1])
		}
	}
	return -1
}

// Ranks lists the ranks that appear in line prefixes, sorted.
func (b Log) Ranks() []int {
	seen := map[int16]bool{}
	var out []int
	for _, l := range b.Lines {
		if l.Rank >= 0 && !seen[l.Rank] {
			seen[l.Rank] = true
			out = append(out, int(l.Rank))
		}
	}
	slices.Sort(out)
	return out
}

// LogWriter splits streams into lines for a Log.
type LogWriter struct {
	buf     Log
	partial [][]byte
	// a live run's writer notes its last non-blank line (see TrackLast)
	track bool
	last  string
	lastN int // non-blank lines so far
}

// TrackLast makes the writer note the last non-blank line it writes (Last): a live run's sign of life.
func (w *LogWriter) TrackLast() { w.track = true }

// Last returns the last non-blank line written (see lastText) and how many non-blank lines came so far; both
// stay zero unless TrackLast was called.
func (w *LogWriter) Last() (string, int) { return w.last, w.lastN }

// Unfinished returns input i's unfinished line as Last would show it ("" when it is blank).
func (w *LogWriter) Unfinished(i int) string {
	if i < 0 || i >= len(w.partial) {
		return ""
	}
	return lastText(w.partial[i])
}

// NewLogWriter starts a log of the named inputs (a run's "runN:stdout" and "runN:stderr", or opened files).
func NewLogWriter(inputs ...string) *LogWriter {
	return &LogWriter{buf: Log{Inputs: inputs, index: make([][]int32, len(inputs))}, partial: make([][]byte, len(inputs))}
}

// Write adds a chunk of input i; an unfinished last line waits for its end.
func (w *LogWriter) Write(i int, data []byte) {
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
		w.line(i, line)
		data = data[nl+1:]
	}
}

// Flush ends every unfinished line.
func (w *LogWriter) Flush() {
	for i, p := range w.partial {
		if len(p) > 0 {
			w.line(i, p)
			w.partial[i] = nil
		}
	}
}

// line adds a complete line of input i (without its '\n').
func (w *LogWriter) line(i int, raw []byte) {
	text := Clean(string(bytes.TrimSuffix(raw, []byte("\r"))))
	w.add(i, text)
	if !w.track {
		return
	}
	if bytes.IndexByte(raw, '\r') >= 0 || len(text) > maxLastText {
		text = lastText(raw)
	} else {
		text = strings.TrimSpace(text)
	}
	if text != "" {
		w.last, w.lastN = text, w.lastN+1
	}
}

// maxLastText bounds the bytes lastText keeps of a line.
const maxLastText = 1024

// lastText is what a line shows as a run's last output: its last non-blank part between '\r's (a progress bar's
// latest state), cleaned, without surrounding spaces and cut to maxLastText bytes; "" when it is blank.
func lastText(raw []byte) string {
	for end := len(raw); end >= 0; {
		start := bytes.LastIndexByte(raw[:end], '\r') + 1
		seg := bytes.TrimLeft(raw[start:end], " \t")
		if len(seg) > maxLastText {
			seg = seg[:maxLastText]
		}
		if s := strings.TrimSpace(strings.ToValidUTF8(Clean(string(seg)), "\uFFFD")); s != "" {
			return s
		}
		end = start - 1
	}
	return ""
}

func (w *LogWriter) add(i int, text string) {
	rank, _ := logparse.LineRank([]byte(text))
	w.buf.index[i] = append(w.buf.index[i], int32(len(w.buf.Lines)))
	w.buf.Lines = append(w.buf.Lines, LogLine{Text: text, Input: int16(i), Rank: int16(max(min(rank, 32767), -1))})
}

// Header adds a line of the tool's own (an input's name).
func (w *LogWriter) Header(text string) {
	w.buf.Lines = append(w.buf.Lines, LogLine{Text: text, Input: -1, Rank: -1, Header: true})
}

// View returns the log as it is now; later writes do not change it.
func (w *LogWriter) View() Log {
	b := w.buf
	b.Lines = b.Lines[:len(b.Lines):len(b.Lines)]
	b.index = make([][]int32, len(w.buf.index))
	for i, x := range w.buf.index {
		b.index[i] = x[:len(x):len(x)]
	}
	return b
}

// Clean makes a line safe to draw: ANSI sequences go, tabs become spaces to the next multiple of 8, other
// control bytes become spaces.
func Clean(s string) string {
	ok := true
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	s = ansi.Strip(s)
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch {
		case r == '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		case r < 0x20 || r == 0x7f:
			r = ' '
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

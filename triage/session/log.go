package session

import (
	"slices"

	"github.com/torchtriage/torchtriage/triage/session/lineidx"
)

// LogLine is one line of a run's combined output.
type LogLine struct {
	Text   string
	Input  int16 // index into Log.Inputs; -1 for headers added by the tool
	Rank   int16 // from the line's rank prefix (logparse's decoder), -1 when none
	Header bool
}

// Log is a run's output as lines. The text stays where it is — the run's stdout.log and stderr.log, the opened
// files — and is read when asked for (Lines, At, Search) through an index: runs of consecutive lines of one
// input, every markEvery-th line's byte offset and each line's rank, kept compact by lineidx (delta-encoded
// offsets; ranks only of the lines that have one until every line has). So a 1 GB log costs a few hundredths of
// a byte a line, not its size (issues 15 and 39). Inputs without a file keep their bytes in memory.
//
// A Log handed out is a view: what it holds is only appended to beyond its length by the writer, never changed
// within it, and the files' bytes before its ends do not change either (the runner and the opened files only
// grow), so views are read from any goroutine.
type Log struct {
	Inputs  []string // the input names records carry (Evidence.Input)
	n       int      // lines
	segs    []segment
	tail    segment           // the last run of lines, still growing in the writer: copied into the view
	inSegs  [][]int32         // per input, its segments (index into segs; len(segs) is tail)
	marks   []lineidx.Offsets // per input, where every markEvery-th line starts (mark k is line k*markEvery)
	long    [][]mark          // per input, where each line after a long one starts (see maxLineText)
	lines   []int32           // per input, its complete lines
	ends    []int64           // per input, where its last complete line ends
	ranks   lineidx.Values    // per line, its rank (lineidx.None: none)
	rankSet []int             // the ranks lines carry, sorted
	headers []string
	paths   []string // per input, its file ("" when kept in mem)
	mem     [][]byte // per input without a file, its bytes
}

// segment is a run of consecutive lines of one input (or one header).
type segment struct {
	pos, n int32 // first line (position in the log) and how many
	in     int16 // input; -1: a header, line indexes Log.headers
	line   int32 // the input's line number (0-based) of the first line
}

// mark is where an input's line starts in its file (a line after a long one).
type mark struct {
	line int32
	off  int64
}

// markEvery is how many lines of an input lie between two of its offset marks: reading a line skips at most
// that many lines.
const markEvery = 64

// Len returns how many lines the log has.
func (b Log) Len() int { return b.n }

// seg returns segment k (len(segs) is the tail).
func (b Log) seg(k int) segment {
	if k == len(b.segs) {
		return b.tail
	}
	return b.segs[k]
}

// segAt returns the segment of position p.
func (b Log) segAt(p int) segment {
	if b.tail.n > 0 && p >= int(b.tail.pos) {
		return b.tail
	}
	k, found := slices.BinarySearchFunc(b.segs, int32(p), func(s segment, p int32) int { return int(s.pos - p) })
	if !found {
		k--
	}
	return b.segs[k]
}

// Find returns the position of an input's line (1-based), or -1.
func (b Log) Find(input string, line int) int {
	for i, name := range b.Inputs {
		if name != input || line < 1 || line > int(b.lines[i]) {
			continue
		}
		l := int32(line - 1)
		ks := b.inSegs[i]
		j, _ := slices.BinarySearchFunc(ks, l, func(k int32, l int32) int {
			s := b.seg(int(k))
			switch {
			case l < s.line:
				return 1
			case l >= s.line+s.n:
				return -1
			}
			return 0
		})
		if j < len(ks) {
			s := b.seg(int(ks[j]))
			return int(s.pos + l - s.line)
		}
	}
	return -1
}

// Rank returns line i's rank (-1 when none).
func (b Log) Rank(i int) int {
	if i < 0 || i >= b.n {
		return -1
	}
	return int(b.ranks.At(i))
}

// Ranks lists the ranks that appear in line prefixes, sorted.
func (b Log) Ranks() []int { return b.rankSet }

package numshape

import (
	"strconv"
	"strings"
)

// Run is one run of digits of a text, [From, To).
type Run struct{ From, To int }

// MaxRuns bounds the runs of a shape; a text with more has none (Key's false).
const MaxRuns = 12

// mark starts a run's mark in a shape key; a text that has the byte has no shape.
const mark = 0

// isNameByte reports a byte that continues a name: a run of digits after one is part of the name.
func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// Key writes g's shape into key and its runs into runs: each run of digits that stands alone (not after a letter,
// digit or '_': the 0 of ___stack0 and the 1 of f1 stay) replaced by a mark of its length and of whether its value
// is below limit. False where g has no shape (a NUL in it, more than MaxRuns runs, a run over 255 digits).
func Key(g string, limit uint64, key []byte, runs []Run) ([]byte, []Run, bool) {
	key, runs = key[:0], runs[:0]
	last := 0
	for i := 0; i < len(g); i++ {
		c := g[i]
		if c == mark {
			return key, runs, false
		}
		if c < '0' || c > '9' || i > 0 && isNameByte(g[i-1]) {
			continue
		}
		j := i + 1
		for j < len(g) && g[j] >= '0' && g[j] <= '9' {
			j++
		}
		if len(runs) == MaxRuns || j-i > 255 {
			return key, runs, false
		}
		small := byte(0)
		if j-i <= 10 {
			if n, err := strconv.ParseUint(g[i:j], 10, 64); err == nil && n < limit {
				small = 1
			}
		}
		key = append(key, g[last:i]...)
		key = append(key, mark, byte(j-i), small)
		runs = append(runs, Run{i, j})
		last = j
		i = j - 1
	}
	return append(key, g[last:]...), runs, true
}

// Flip is s with every digit other (0↔1, 2↔3, …), as many of them.
func Flip(s string) string {
	b := []byte(s)
	for i := range b {
		b[i] ^= 1
	}
	return string(b)
}

// Words is one word made from a text: literal pieces, each followed by a run of the text (run -1: the end).
type Words struct {
	parts []part
	fixed int // the bytes of the pieces
}

type part struct {
	lit string
	run int
}

// WordsOf finds where each run of g lands in w, a word made from g, from others[k], the same word made from g with
// run k's digits flipped (Flip): the bytes that differ are run k's, whole. nil, true: w has no run; false: a run's
// place cannot be told (w holds part of a run, or the word differs in length).
func WordsOf(w string, others []string, g string, runs []Run) (*Words, bool) {
	owner := make([]int8, len(w)) // which run each byte of w is of: -1 none
	for i := range owner {
		owner[i] = -1
	}
	any := false
	for k, o := range others {
		if len(o) != len(w) {
			return nil, false
		}
		for i := 0; i < len(w); i++ {
			if o[i] != w[i] {
				if owner[i] >= 0 {
					return nil, false
				}
				owner[i], any = int8(k), true
			}
		}
	}
	if !any {
		return nil, true
	}
	sw := &Words{}
	last := 0
	for i := 0; i < len(w); {
		k := int(owner[i])
		if k < 0 {
			i++
			continue
		}
		run := g[runs[k].From:runs[k].To]
		// the bytes of run k in w: all of it, each byte changed, and the same run in the changed word
		if !strings.HasPrefix(w[i:], run) || !strings.HasPrefix(others[k][i:], Flip(run)) {
			return nil, false
		}
		for j := i; j < i+len(run); j++ {
			if int(owner[j]) != k {
				return nil, false
			}
		}
		sw.parts = append(sw.parts, part{w[last:i], k})
		sw.fixed += i - last
		i += len(run)
		last = i
	}
	sw.parts = append(sw.parts, part{w[last:], -1})
	sw.fixed += len(w) - last
	return sw, true
}

// Size is the length of the word made for g (whose runs are runs); 0 for nil.
func (w *Words) Size(g string, runs []Run) int {
	if w == nil {
		return 0
	}
	n := w.fixed
	for _, p := range w.parts {
		if p.run >= 0 {
			n += runs[p.run].To - runs[p.run].From
		}
	}
	return n
}

// Write writes the word made for g (whose runs are runs); nothing for nil.
func (w *Words) Write(b *strings.Builder, g string, runs []Run) {
	if w == nil {
		return
	}
	for _, p := range w.parts {
		b.WriteString(p.lit)
		if p.run >= 0 {
			b.WriteString(g[runs[p.run].From:runs[p.run].To])
		}
	}
}

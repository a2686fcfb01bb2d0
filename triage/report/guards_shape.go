package report

import (
	"strconv"
	"strings"
)

// The guard memo by shape. A log of many recompiles gives most guards values of their own (sizes, constants,
// object ids: "tensor 'x' size mismatch at index 0. expected 1040, actual 1041", "scale == 3127.15"), so a memo of
// whole texts misses on each and ClassifyGuard, regexps and all, runs per recompile. Here a guard's numbers are
// masked: its shape is the text with each run of digits that stands alone (not part of a name: the 0 of ___stack0
// and the 1 of f1 stay) replaced by a mark of its length. A shape is classified once — the first text of it, and
// once more per run of digits with that run's digits changed, which shows where each run lands in the class's
// words — and a later text of the shape has its own digits filled into those places. Quoted strings are not
// masked: the classifier reads words inside them ('autocast', G[…], hasattr(…) decide a class).
//
// Every rule of ClassifyGuard reads a number by its digits (a literal or not, an int or a float, how many
// digits), never by its value, but one: staticObjectID's id below 2²⁶. A run's mark says that too. A rule added
// there that reads a value must be said in the mark (guardShapeKey), or the memo gives one text's class to another;
// TestShapeMemoEqualsDirect and FuzzShapeMemo compare the two paths.

// digitRun is one run of digits of a guard text, [from, to).
type digitRun struct{ from, to int }

// maxShapeRuns bounds the runs of a shape classified by its parts (one ClassifyGuard per run when a shape is first
// met); a text with more is classified whole.
const maxShapeRuns = 12

// shapeMark starts a run's mark in a shape key; a text that has the byte is classified whole.
const shapeMark = 0

// isNameByte reports a byte that continues a name: a run of digits after one is part of the name.
func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// guardShapeKey writes g's shape into key and its runs into runs; false where g is classified whole (a NUL in it,
// more than maxShapeRuns runs, a run over 255 digits).
func guardShapeKey(g string, key []byte, runs []digitRun) ([]byte, []digitRun, bool) {
	key, runs = key[:0], runs[:0]
	last := 0
	for i := 0; i < len(g); i++ {
		c := g[i]
		if c == shapeMark {
			return key, runs, false
		}
		if c < '0' || c > '9' || i > 0 && isNameByte(g[i-1]) {
			continue
		}
		j := i + 1
		for j < len(g) && g[j] >= '0' && g[j] <= '9' {
			j++
		}
		if len(runs) == maxShapeRuns || j-i > 255 {
			return key, runs, false
		}
		small := byte(0)
		if j-i <= 10 {
			if n, err := strconv.ParseUint(g[i:j], 10, 64); err == nil && n < staticIDLimit {
				small = 1
			}
		}
		key = append(key, g[last:i]...)
		key = append(key, shapeMark, byte(j-i), small)
		runs = append(runs, digitRun{i, j})
		last = j
		i = j - 1
	}
	return append(key, g[last:]...), runs, true
}

// guardShape is what a shape classifies to: the class, and each of its words as pieces and the runs between them.
// Where a run's place could not be told (the class's words hold part of a run, or differ in length or class with
// the run's digits), whole is set: each text of the shape is classified on its own.
type guardShape struct {
	whole bool
	gc    GuardClass // the class of the first text: its words where they have no run
	// the words that hold runs (nil: gc's word as it is)
	source, detail, old, new *shapeWords
	dimRun                   int // the run whose value is the dimension, or -1: gc.Dim
}

// shapeWords is one word of a class: literal pieces, each followed by a run of the text (run -1: the end).
type shapeWords struct {
	parts []shapePart
	fixed int // the bytes of the pieces
}

type shapePart struct {
	lit string
	run int
}

// newShape classifies the shape of g (whose runs are runs) from g and, per run, g with that run's digits changed.
func newShape(g string, runs []digitRun) *guardShape {
	base := ClassifyGuard(g)
	s := &guardShape{gc: base, dimRun: -1}
	if len(runs) == 0 {
		return s
	}
	var key0 []byte
	key0, _, _ = guardShapeKey(g, nil, nil)
	var (
		perRun  = make([]GuardClass, len(runs))
		changed = []byte(g)
	)
	for k, r := range runs {
		for i := r.from; i < r.to; i++ {
			changed[i] ^= 1 // 0↔1, 2↔3, …: every digit other, the count the same
		}
		other := string(changed)
		if key, _, _ := guardShapeKey(other, nil, nil); string(key) != string(key0) {
			s.whole = true // the change crossed staticObjectID's limit: this shape is not one class
			return s
		}
		perRun[k] = ClassifyGuard(other)
		copy(changed[r.from:r.to], g[r.from:r.to])
	}
	for _, gc := range perRun {
		if gc.Class != base.Class || gc.Expected != base.Expected {
			s.whole = true
			return s
		}
	}
	// the dimension: the same for every change, or the value of the one run that changes it
	for k, gc := range perRun {
		if gc.Dim == base.Dim {
			continue
		}
		run := g[runs[k].from:runs[k].to]
		if s.dimRun >= 0 || atoi(run) != base.Dim || atoi(flipDigits(run)) != gc.Dim {
			s.whole = true
			return s
		}
		s.dimRun = k
	}
	ok := true
	word := func(pick func(*GuardClass) string) *shapeWords {
		others := make([]string, len(perRun))
		for k := range perRun {
			others[k] = pick(&perRun[k])
		}
		w, good := wordsOf(pick(&base), others, g, runs)
		ok = ok && good
		return w
	}
	s.source = word(func(c *GuardClass) string { return c.Source })
	s.detail = word(func(c *GuardClass) string { return c.Detail })
	s.old = word(func(c *GuardClass) string { return c.Old })
	s.new = word(func(c *GuardClass) string { return c.New })
	s.whole = !ok
	return s
}

func flipDigits(s string) string {
	b := []byte(s)
	for i := range b {
		b[i] ^= 1
	}
	return string(b)
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -2 // no dimension is -2
	}
	return n
}

// wordsOf finds where each run of g lands in w, the word of g's class, from others[k], the same word of the class
// of g with run k's digits changed: the bytes that differ are run k's, whole. nil, true: w has no run; false: a
// run's place cannot be told.
func wordsOf(w string, others []string, g string, runs []digitRun) (*shapeWords, bool) {
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
	sw := &shapeWords{}
	last := 0
	for i := 0; i < len(w); {
		k := int(owner[i])
		if k < 0 {
			i++
			continue
		}
		run := g[runs[k].from:runs[k].to]
		// the bytes of run k in w: all of it, each byte changed, and the same run in the changed word
		if !strings.HasPrefix(w[i:], run) || !strings.HasPrefix(others[k][i:], flipDigits(run)) {
			return nil, false
		}
		for j := i; j < i+len(run); j++ {
			if int(owner[j]) != k {
				return nil, false
			}
		}
		sw.parts = append(sw.parts, shapePart{w[last:i], k})
		sw.fixed += i - last
		i += len(run)
		last = i
	}
	sw.parts = append(sw.parts, shapePart{w[last:], -1})
	sw.fixed += len(w) - last
	return sw, true
}

// of is the class of g, a text of the shape with runs runs: the shape's words with g's digits in them, every word
// that holds a run made in one string (one allocation a text).
func (s *guardShape) of(g string, runs []digitRun) GuardClass {
	gc := s.gc
	words := [...]*shapeWords{s.source, s.detail, s.old, s.new}
	n := 0
	for _, w := range words {
		n += w.size(g, runs)
	}
	if n > 0 {
		var b strings.Builder
		b.Grow(n)
		var ends [len(words)]int
		for i, w := range words {
			w.write(&b, g, runs)
			ends[i] = b.Len()
		}
		all, from := b.String(), 0
		for i, f := range [...]*string{&gc.Source, &gc.Detail, &gc.Old, &gc.New} {
			if words[i] != nil {
				*f = all[from:ends[i]]
			}
			from = ends[i]
		}
	}
	if s.dimRun >= 0 {
		r := runs[s.dimRun]
		gc.Dim = atoi(g[r.from:r.to])
	}
	return gc
}

func (w *shapeWords) size(g string, runs []digitRun) int {
	if w == nil {
		return 0
	}
	n := w.fixed
	for _, p := range w.parts {
		if p.run >= 0 {
			n += runs[p.run].to - runs[p.run].from
		}
	}
	return n
}

func (w *shapeWords) write(b *strings.Builder, g string, runs []digitRun) {
	if w == nil {
		return
	}
	for _, p := range w.parts {
		b.WriteString(p.lit)
		if p.run >= 0 {
			b.WriteString(g[runs[p.run].from:runs[p.run].to])
		}
	}
}

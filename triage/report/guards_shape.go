package report

import (
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/numshape"
)

// The guard memo by shape. A log of many recompiles gives most guards values of their own (sizes, constants,
// object ids: "tensor 'x' size mismatch at index 0. expected 1040, actual 1041", "scale == 3127.15"), so a memo of
// whole texts misses on each and guard.Classify, regexps and all, runs per recompile. Here a guard's numbers are
// masked: its shape is the text with each run of digits that stands alone (not part of a name: the 0 of ___stack0
// and the 1 of f1 stay) replaced by a mark of its length. A shape is classified once — the first text of it, and
// once more per run of digits with that run's digits changed, which shows where each run lands in the class's
// words — and a later text of the shape has its own digits filled into those places. Quoted strings are not
// masked: the classifier reads words inside them ('autocast', G[…], hasattr(…) decide a class).
//
// The masking and the words are numshape's; here is what a guard's class makes of them. Every rule of
// guard.Classify reads a number by its digits (a literal or not, an int or a float, how many digits), never by its
// value, but one: guard.StaticObjectID's id below 2²⁶. A run's mark says that too. A rule added there that reads a value
// must be said in the mark (guardShapeKey), or the memo gives one text's class to another;
// TestShapeMemoEqualsDirect and FuzzShapeMemo compare the two paths.

// guardShapeKey writes g's shape into key and its runs into runs (numshape.Key, with guard.StaticObjectID's limit).
func guardShapeKey(g string, key []byte, runs []numshape.Run) ([]byte, []numshape.Run, bool) {
	return numshape.Key(g, guard.StaticIDLimit, key, runs)
}

// guardShape is what a shape classifies to: the class, and each of its words as pieces and the runs between them.
// Where a run's place could not be told (the class's words hold part of a run, or differ in length or class with
// the run's digits), whole is set: each text of the shape is classified on its own.
type guardShape struct {
	whole bool
	gc    guard.Class // the class of the first text: its words where they have no run
	// the words that hold runs (nil: gc's word as it is)
	source, detail, old, new *numshape.Words
	dimRun                   int // the run whose value is the dimension, or -1: gc.Dim
}

// newShape classifies the shape of g (whose runs are runs) from g and, per run, g with that run's digits changed.
func newShape(g string, runs []numshape.Run) *guardShape {
	base := guard.Classify(g)
	s := &guardShape{gc: base, dimRun: -1}
	if len(runs) == 0 {
		return s
	}
	var key0 []byte
	key0, _, _ = guardShapeKey(g, nil, nil)
	var (
		perRun  = make([]guard.Class, len(runs))
		changed = []byte(g)
	)
	for k, r := range runs {
		for i := r.From; i < r.To; i++ {
			changed[i] ^= 1 // 0↔1, 2↔3, …: every digit other, the count the same
		}
		other := string(changed)
		if key, _, _ := guardShapeKey(other, nil, nil); string(key) != string(key0) {
			s.whole = true // the change crossed guard.StaticObjectID's limit: this shape is not one class
			return s
		}
		perRun[k] = guard.Classify(other)
		copy(changed[r.From:r.To], g[r.From:r.To])
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
		run := g[runs[k].From:runs[k].To]
		if s.dimRun >= 0 || atoi(run) != base.Dim || atoi(numshape.Flip(run)) != gc.Dim {
			s.whole = true
			return s
		}
		s.dimRun = k
	}
	ok := true
	word := func(pick func(*guard.Class) string) *numshape.Words {
		others := make([]string, len(perRun))
		for k := range perRun {
			others[k] = pick(&perRun[k])
		}
		w, good := numshape.WordsOf(pick(&base), others, g, runs)
		ok = ok && good
		return w
	}
	s.source = word(func(c *guard.Class) string { return c.Source })
	s.detail = word(func(c *guard.Class) string { return c.Detail })
	s.old = word(func(c *guard.Class) string { return c.Old })
	s.new = word(func(c *guard.Class) string { return c.New })
	s.whole = !ok
	return s
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -2 // no dimension is -2
	}
	return n
}

// of is the class of g, a text of the shape with runs runs: the shape's words with g's digits in them, every word
// that holds a run made in one string (one allocation a text).
func (s *guardShape) of(g string, runs []numshape.Run) guard.Class {
	gc := s.gc
	words := [...]*numshape.Words{s.source, s.detail, s.old, s.new}
	n := 0
	for _, w := range words {
		n += w.Size(g, runs)
	}
	if n > 0 {
		var b strings.Builder
		b.Grow(n)
		var ends [len(words)]int
		for i, w := range words {
			w.Write(&b, g, runs)
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
		gc.Dim = atoi(g[r.From:r.To])
	}
	return gc
}

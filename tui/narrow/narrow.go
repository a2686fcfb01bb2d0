package narrow

import (
	"strings"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

// Filter finds a pattern among a list's texts, one keystroke after another.
type Filter struct {
	texts []string
	lower []string // per text, its ASCII-lowered form up to its first NUL; "" with ascii[i] false: not ASCII
	ascii []bool
	kept  []Result // the results of the current pattern and of its prefixes typed before it, shortest first
}

// Result is which texts match a pattern: Index[k] is the k-th match's index in the list (in list order); Bytes
// finds where its letters matched when asked (only the rows on screen ask).
type Result struct {
	Pattern string
	Index   []int
	texts   []string
}

// Bytes is the byte offsets in the k-th match's text that the pattern's letters matched (the matcher's
// MatchedIndexes).
func (r Result) Bytes(k int) []int {
	if k < 0 || k >= len(r.Index) {
		return nil
	}
	if ms := fuzzy.FindNoSort(r.Pattern, []string{r.texts[r.Index[k]]}); len(ms) == 1 {
		return ms[0].MatchedIndexes
	}
	return nil
}

// New starts a filter over texts (the list's search texts; not copied, not changed).
func New(texts []string) *Filter {
	f := &Filter{texts: texts, lower: make([]string, len(texts)), ascii: make([]bool, len(texts))}
	for i, t := range texts {
		if k := strings.IndexByte(t, 0); k >= 0 {
			t = t[:k] // the matcher reads a text up to its first NUL
		}
		if isASCII(t) {
			f.lower[i], f.ascii[i] = strings.ToLower(t), true
		}
	}
	return f
}

// Find returns the texts that match pattern ("" matches none: the caller shows every row unfiltered).
func (f *Filter) Find(pattern string) Result {
	if pattern == "" {
		f.kept = f.kept[:0]
		return Result{}
	}
	for len(f.kept) > 0 && !strings.HasPrefix(pattern, f.kept[len(f.kept)-1].Pattern) {
		f.kept = f.kept[:len(f.kept)-1] // not a prefix of the new pattern: of no use now
	}
	if n := len(f.kept); n > 0 && f.kept[n-1].Pattern == pattern {
		return f.kept[n-1]
	}
	var among []int // nil: every text
	if n := len(f.kept); n > 0 {
		among = f.kept[n-1].Index
	}
	r := f.find(pattern, among)
	f.kept = append(f.kept, r)
	return r
}

// find picks the texts among (nil: all) that match pattern. An ASCII text matches an ASCII pattern exactly when
// it holds the pattern's letters in order, case aside (the matcher takes each letter at its first place after the
// last that can be followed by the next); the rest go to the matcher.
func (f *Filter) find(pattern string, among []int) Result {
	lowered, patASCII := strings.ToLower(pattern), isASCII(pattern) && strings.IndexByte(pattern, 0) < 0
	r := Result{Pattern: pattern, Index: []int{}, texts: f.texts}
	consider := func(i int) {
		if patASCII && f.ascii[i] {
			if inOrder(f.lower[i], lowered) {
				r.Index = append(r.Index, i)
			}
		} else if len(fuzzy.FindNoSort(pattern, f.texts[i:i+1])) == 1 {
			r.Index = append(r.Index, i)
		}
	}
	if among == nil {
		for i := range f.texts {
			consider(i)
		}
	} else {
		for _, i := range among {
			consider(i)
		}
	}
	return r
}

// inOrder reports whether p's bytes appear in s in order (both lowered ASCII).
func inOrder(s, p string) bool {
	for i := 0; i < len(p); i++ {
		k := strings.IndexByte(s, p[i])
		if k < 0 {
			return false
		}
		s = s[k+1:]
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

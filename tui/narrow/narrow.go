package narrow

import (
	"strings"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

// Filter finds a pattern among a list's texts, one keystroke after another.
type Filter struct {
	texts []string
	lower []string // per text, one byte a rune up to its first NUL, folded as the matcher folds for an ASCII pattern
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
	f := &Filter{texts: texts, lower: make([]string, len(texts))}
	for i, t := range texts {
		if k := strings.IndexByte(t, 0); k >= 0 {
			t = t[:k] // the matcher reads a text up to its first NUL
		}
		f.lower[i] = fold(t)
	}
	return f
}

// fold is t with one byte a rune (as the matcher decodes it): ASCII lowered, the two runes that fold to ASCII
// letters (KELVIN SIGN, LATIN SMALL LETTER LONG S) as those, every other rune a byte no ASCII letter equals.
func fold(t string) string {
	b := make([]byte, 0, len(t))
	for _, r := range t {
		switch {
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b = append(b, byte(r))
		case r == '\u212a':
			b = append(b, 'k')
		case r == '\u017f':
			b = append(b, 's')
		default:
			b = append(b, utf8.RuneSelf)
		}
	}
	return string(b)
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
	among := f.all()
	if n := len(f.kept); n > 0 {
		among = f.kept[n-1].Index
	}
	r := f.find(pattern, among)
	f.kept = append(f.kept, r)
	return r
}

func (f *Filter) all() []int {
	idx := make([]int, len(f.texts))
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// find picks the texts among that match pattern. For an ASCII pattern a text matches exactly when its folded
// form holds the pattern's letters in order, case aside (the matcher takes each letter at a place after the last
// one's, moving on before the next letter's first place after it, and ends at the text's end): no matcher runs.
// Another pattern goes to the matcher.
func (f *Filter) find(pattern string, among []int) Result {
	r := Result{Pattern: pattern, Index: []int{}, texts: f.texts}
	if !isASCII(pattern) || strings.IndexByte(pattern, 0) >= 0 {
		for _, m := range fuzzy.FindFromNoSort(pattern, source{f.texts, among}) {
			r.Index = append(r.Index, among[m.Index])
		}
		return r
	}
	lowered := fold(pattern)
	for _, i := range among {
		if inOrder(f.lower[i], lowered) {
			r.Index = append(r.Index, i)
		}
	}
	return r
}

// inOrder reports whether p's bytes appear in s in order.
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

// source is the texts at idx, for the matcher.
type source struct {
	texts []string
	idx   []int
}

func (s source) String(i int) string { return s.texts[s.idx[i]] }
func (s source) Len() int            { return len(s.idx) }

package narrow

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

// Typing, growing and shortening a pattern gives at every keystroke what sahilm/fuzzy gives over the whole list:
// the same texts in the same order, the same matched bytes (mixed case, separators, non-ASCII letters that fold
// to ASCII ones, NULs).
func TestFindIsTheMatchersResult(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "b", "o", "p", "O", "P", "_", " ", ".", "/", ":", "1", "2", "é", "É", "\u212a", "k", "K", "s", "S", "\u017f", "\xff", "\x00"}
	word := func(n int) string {
		s := ""
		for range n {
			s += alphabet[rng.IntN(len(alphabet))]
		}
		return s
	}
	texts := make([]string, 1000)
	for i := range texts {
		texts[i] = word(rng.IntN(30))
	}
	texts = append(texts, "op_1() model_1.py:1 forward", "graph break in OP_12", "Kelvin \u212a here", "shape x[0] 4→8 ſ")
	f := New(texts)
	pattern := ""
	for step := 0; step < 1000; step++ {
		switch {
		case rng.IntN(3) == 0 && pattern != "":
			_, size := lastRune(pattern)
			pattern = pattern[:len(pattern)-size] // backspace
		case rng.IntN(40) == 0:
			pattern = "" // esc
		default:
			pattern += alphabet[rng.IntN(len(alphabet)-1)] // never a NUL typed
		}
		got := f.Find(pattern)
		want := fuzzy.FindFromNoSort(pattern, fuzzy.Source(stringsSource(texts)))
		if len(got.Index) != len(want) {
			t.Fatalf("pattern %q: %d matches, the matcher finds %d", pattern, len(got.Index), len(want))
		}
		for k, m := range want {
			if got.Index[k] != m.Index || !slices.Equal(got.Bytes(k), m.MatchedIndexes) {
				t.Fatalf("pattern %q: match %d is text %d at %v, the matcher's is %d at %v", pattern, k, got.Index[k], got.Bytes(k), m.Index, m.MatchedIndexes)
			}
		}
	}
}

// A pattern that grows is looked for only among the shorter one's matches; a backspace takes the kept result.
func TestGrowingPatternNarrows(t *testing.T) {
	f := New([]string{"alpha", "xyz", "alpine"})
	if r := f.Find("a"); !slices.Equal(r.Index, []int{0, 2}) {
		t.Fatalf("a: %v", r.Index)
	}
	f.lower[1] = "alp" // text 1 did not match "a": "al" does not look at it again
	if r := f.Find("al"); !slices.Equal(r.Index, []int{0, 2}) {
		t.Fatalf("al: %v", r.Index)
	}
	if r := f.Find("a"); !slices.Equal(r.Index, []int{0, 2}) || len(f.kept) != 1 {
		t.Fatalf("back to a: %v (kept %d)", r.Index, len(f.kept))
	}
}

type stringsSource []string

func (s stringsSource) String(i int) string { return s[i] }
func (s stringsSource) Len() int            { return len(s) }

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] < 0x80 || s[i] >= 0xC0 {
			return rune(s[i]), len(s) - i
		}
	}
	return 0, 1
}

// fold's two exceptions are every rune beyond ASCII that the matcher takes for an ASCII letter (the orbits of
// unicode.SimpleFold), and every other such rune folds to a byte no ASCII pattern has.
func TestFoldKnowsTheRunesThatFoldToASCII(t *testing.T) {
	for c := rune(0); c < utf8.RuneSelf; c++ {
		for r := unicode.SimpleFold(c); r != c; r = unicode.SimpleFold(r) {
			if r >= utf8.RuneSelf && fold(string(r)) != fold(string(c)) {
				t.Errorf("%U folds with %q, fold makes it %q", r, c, fold(string(r)))
			}
		}
	}
	if got := fold("é→\xff"); got != "\x80\x80\x80" {
		t.Errorf("fold of other runes: %q", got)
	}
}

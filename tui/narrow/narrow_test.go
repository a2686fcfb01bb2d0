package narrow

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sahilm/fuzzy"
)

// Typing, growing and shortening a pattern gives at every keystroke what sahilm/fuzzy gives over the whole list:
// the same texts in the same order, the same matched bytes (mixed case, separators, non-ASCII letters that fold
// to ASCII ones, NULs).
func TestFindIsTheMatchersResult(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "b", "o", "p", "O", "P", "_", " ", ".", "/", ":", "1", "2", "é", "É", "\u212a", "k", "K", "\x00"}
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
	texts = append(texts, "op_1() model_1.py:1 forward", "graph break in OP_12", "Kelvin \u212a here")
	f := New(texts)
	pattern := ""
	for step := 0; step < 1500; step++ {
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

// A pattern that grows runs the matcher only on the texts the shorter one matched.
func TestGrowingPatternNarrows(t *testing.T) {
	texts := []string{"alpha", "beta", "gamma", "alpine", "zeta"}
	f := New(texts)
	if r := f.Find("a"); len(r.Index) != 5 {
		t.Fatalf("a: %v", r.Index)
	}
	f.texts[1] = "alp" // the filter narrows from a's matches: a text's change is not looked at again
	if r := f.Find("al"); !slices.Equal(r.Index, []int{0, 3}) {
		t.Fatalf("al: %v", r.Index)
	}
	if r := f.Find("alp"); !slices.Equal(r.Index, []int{0, 3}) {
		t.Fatalf("alp: %v", r.Index)
	}
	if r := f.Find("al"); !slices.Equal(r.Index, []int{0, 3}) || len(f.kept) != 2 {
		t.Fatalf("back to al: %v (kept %d)", r.Index, len(f.kept))
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

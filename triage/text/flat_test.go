package text

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// flatLine's fast path (flat) gives what Fields and Join give, for ASCII, spaces of every kind and non-ASCII text.
func TestFlatLineIsFieldsJoined(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", " a b", "a b ", "a  b", "a\tb", "a\u00a0b", "a\u0085b", "ünï cödé", "x = y  # c",
		"a\rb", "a\vb", "a\fb", "tail\nmore  lines", "  "} {
		want := s
		if i := strings.IndexByte(want, '\n'); i >= 0 {
			want = want[:i]
		}
		want = strings.Join(strings.Fields(want), " ")
		if got := FlatLine(s); got != want {
			t.Errorf("flatLine(%q) = %q, want %q", s, got, want)
		}
	}
	// collapseSpaces on random texts of ASCII, every ASCII space, control bytes and non-ASCII spaces
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "bc", " ", "  ", "\t", "\v", "\f", "\r", "\n", "\x00", "#", "\u00a0", "\u0085", "é", "\u2003", "\xff"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(10) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := collapseSpaces(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("collapseSpaces(%q) = %q, want %q", s, got, want)
		}
	}
	if got := OneLine("äöü äöü äöü", 9); got != "äöü…" { // cut at a space, by runes, not bytes
		t.Errorf("OneLine of 11 runes in 9: %q", got)
	}
}

package logparse

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// gbLinkID finds what this regexp finds, without it.
var gbLink = regexp.MustCompile(`/gb/gb(\d+)\.html`)

func TestGBLinkIDIsTheRegexp(t *testing.T) {
	texts := []string{"For more details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0008.html",
		"/gb/gb.html /gb/gb12.html", "/gb/gb/gb7.html", "/gb/gb7.htm", "/gb/gb", "", "x/gb/gb1.html/gb/gb2.html"}
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"/gb/gb", "/gb", "gb", "1", "23", ".html", ".htm", "x", "/"}
	for range 20000 {
		s := ""
		for range rng.IntN(6) {
			s += pieces[rng.IntN(len(pieces))]
		}
		texts = append(texts, s)
	}
	for _, s := range texts {
		want := ""
		if m := gbLink.FindStringSubmatch(s); m != nil {
			want = m[1]
		}
		if got := gbLinkID(s); got != want {
			t.Fatalf("gbLinkID(%q) = %q, the regexp finds %q", s, got, want)
		}
	}
}

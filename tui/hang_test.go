package tui

import (
	"slices"
	"testing"

	"github.com/torchtriage/torchtriage/tui/cells"
)

// hang wraps at words to w cells of text and puts its leads before the lines: the first, then the rest.
func TestHang(t *testing.T) {
	for _, c := range []struct {
		text        string
		w           int
		first, rest string
		want        []string
	}{
		{"one two three four", 9, "▸ ", "  ", []string{"▸ one two", "  three", "  four"}},
		{"fits", 10, "   ", "     ", []string{"   fits"}},
		{"", 10, " ", "  ", []string{" "}},
		{"para one\npara two", 20, "- ", "  ", []string{"- para one", "  para two"}},
		{"abcdefghij", 4, "", ">", []string{"abcd", ">efgh", ">ij"}}, // a long word is broken
		{"a b", 0, "", "", []string{"a", "b"}},                       // no room: one cell a line
	} {
		if got := hang(c.text, c.w, c.first, c.rest); !slices.Equal(got, c.want) {
			t.Errorf("hang(%q, %d, %q, %q) = %q, want %q", c.text, c.w, c.first, c.rest, got, c.want)
		}
	}
	// styled text keeps its style across the break, and its width counts cells, not bytes
	styled := "\x1b[2mone two\x1b[0m"
	if got := hang(styled, 3, " ", " "); len(got) != 2 || cells.Width(got[0]) != 4 || cells.Width(got[1]) != 4 {
		t.Errorf("styled: %q", got)
	}
}

package cells

import "testing"

// The fitting rules each screen relies on: exact widths, cuts at words and parts, a site cut from the left with
// its line number whole, styled text measured by its cells.
func TestFittingRules(t *testing.T) {
	for _, c := range []struct{ name, got, want string }{
		{"Fit pads", Fit("ab", 4), "ab  "},
		{"Fit cuts with an ellipsis", Fit("abcdef", 4), "abc…"},
		{"Cut does not pad", Cut("ab", 4), "ab"},
		{"CutWords at a word", CutWords("graph break in forward", 16), "graph break in…"},
		{"CutParts after a whole part", CutParts("Breaks & more · 1 CUDA-graph skip · 2 recompiles", 37), "Breaks & more · 1 CUDA-graph skip · …"},
		{"Spread flushes right", Spread("left", "right", 12), "left   right"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
	if s, _ := CutSite("torch/_dynamo/compile.py:18 fn", 12); s != "…mpile.py:18" {
		t.Errorf("CutSite: %q", s)
	}
	if w := Width("\x1b[1mbold\x1b[0m"); w != 4 {
		t.Errorf("Width of styled text: %d", w)
	}
	if got := PadLines([]string{"a"}, 2, 2); len(got) != 2 || got[0] != "a " || got[1] != "  " {
		t.Errorf("PadLines: %q", got)
	}
}

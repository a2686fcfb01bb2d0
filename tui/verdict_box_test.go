package tui

import (
	"strings"
	"testing"
)

// With nothing in the lists the main screen's bottom box is the Verdict; at 80×24 it kept two of its lines and
// dropped the rest without a mark (compile-off: "…; an eager baseline to time a" and no "compiled run against.",
// no "n: next step"). It takes the lines the empty lists do not need now, so its sentences are whole.
func TestVerdictBoxIsWhole(t *testing.T) {
	for _, in := range []string{
		"../../testdata/recorded/compile-off/runs/0001-breaks",
		"../../testdata/recorded/force-eager/runs/0001-breaks",
		"../../testdata/recorded/dynamic-false/dynauto-214.log",
	} {
		for _, size := range [][2]int{{80, 24}, {120, 32}} {
			m := openModel(t, size[0], size[1], in)
			if m.lists[0].len()+m.lists[1].len() != 0 {
				continue
			}
			s := plain(m)
			lines := strings.Split(s, "\n")
			var box []string
			inBox := false
			for _, l := range lines {
				if strings.HasPrefix(l, "┌─ Verdict") {
					inBox = true
					continue
				}
				if inBox && strings.HasPrefix(l, "└") {
					break
				}
				if inBox {
					box = append(box, l)
				}
			}
			text := squeeze(strings.Join(box, " "))
			for _, want := range m.verdictLines(m.cur) {
				if !strings.Contains(text, squeeze(want)) {
					t.Errorf("%s at %v: %q not whole in the Verdict box:\n%s", in, size, want, s)
				}
			}
			if len(lines) != size[1] {
				t.Errorf("%s at %v: %d lines", in, size, len(lines))
			}
		}
	}
}

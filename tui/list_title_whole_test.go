package tui

import (
	"strings"
	"testing"
)

// The left list's title hid a kind it holds at 120 columns: "Breaks & more · 1 break (2 records) · …" over the
// r05 run's "ranks differ" row (and quiet-rank's). Where the whole title does not fit the box, the record count
// gives way first: "Breaks & more · 1 break · 1 rank disagreement".
func TestLeftTitleKeepsItsKindsBeforeTheRecords(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"r05_dist_c10d.triage.log", "Breaks & more · 1 break · 1 rank disagreement "},
		{"../../testdata/recorded/quiet-rank/runs/0013-breaks", "Breaks & more · 1 break · 1 rank disagreement "},
	} {
		m := openModel(t, 120, 32, c.in)
		s := plain(m)
		if title := lineWith(t, s, "Breaks & more"); !strings.Contains(title, c.want) {
			t.Errorf("%s: want %q in %q", c.in, c.want, title)
		}
		m = openModel(t, 80, 24, c.in) // a box as wide as the screen: the records stay
		if title := lineWith(t, plain(m), "Breaks & more"); !strings.Contains(title, "Breaks & more · 1 break (") ||
			!strings.Contains(title, " · 1 rank disagreement ") {
			t.Errorf("%s at 80: %q", c.in, title)
		}
	}
}

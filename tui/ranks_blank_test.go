package tui

import (
	"strings"
	"testing"
)

// The Ranks view put two blank lines above "Per rank" where the agreement has no groups to list (ranks not
// compared: the peer-abort run did not complete); one blank line parts them, as where there are groups (r05).
func TestRanksViewOneBlankLineAbovePerRank(t *testing.T) {
	for _, in := range []string{"../../testdata/recorded/peer-abort/runs/0001-breaks", "r05_dist_c10d.triage.log"} {
		for _, w := range []int{80, 120} {
			m := openModel(t, w, 40, in)
			press(m, "R")
			lines := strings.Split(plain(m), "\n")
			at := -1
			for i, l := range lines {
				if strings.Contains(l, " Per rank") {
					at = i
					break
				}
			}
			blank := func(l string) bool { return strings.Trim(l, " ┃│") == "" }
			if at < 3 || !blank(lines[at-1]) || blank(lines[at-2]) {
				t.Errorf("%s at %d: one blank line above Per rank:\n%s", in, w, strings.Join(lines, "\n"))
			}
		}
	}
}

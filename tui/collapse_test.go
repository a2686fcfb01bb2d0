package tui

import (
	"strings"
	"testing"
)

// At 80×24 a pane with one row kept six while the Recommended box was cut to two lines and "… enter: full
// playbook": the lists take what they show, and the box the rest, as far as its text goes.
func TestPanesGiveTheirEmptyRowsToTheRecommendedBox(t *testing.T) {
	m := liveModel(t, 80, 24)
	feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
	s := plain(m)
	if strings.Contains(s, "enter: full playbook") || !strings.Contains(s, "Verify:") {
		t.Errorf("the Recommended box is cut while the lists have empty rows:\n%s", s)
	}
	for _, l := range strings.Split(s, "\n") {
		if strings.Trim(l, " ┃│") == "" && strings.ContainsAny(l, "┃│") {
			t.Errorf("an empty row is kept in a pane:\n%s", s)
			break
		}
	}
}

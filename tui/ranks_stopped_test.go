package tui

import (
	"strings"
	"testing"
)

// The Ranks view of a hang the tool stopped says where each rank waited, the report's lines (one source:
// Analysis.StoppedAtWords): check and report said it, the TUI did not.
func TestRanksViewSaysWhereEachRankWasWhenStopped(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := openModel(t, w, 40, recordedRun("diverged-hang", "0001-breaks"))
		press(m, "R")
		s := plain(m)
		for _, want := range []string{"Where each rank was when torchtriage stopped the run", "rank 0: skip_sync.py:19 (stack dump)",
			"rank 1: skip_sync.py:21 (stack dump)"} {
			if !strings.Contains(s, want) {
				t.Errorf("%d columns: Ranks view lacks %q:\n%s", w, want, s)
			}
		}
	}
	m := openModel(t, 120, 40, recordedRun("quiet-rank", "0013-breaks")) // completed: nothing of it
	press(m, "R")
	if s := plain(m); strings.Contains(s, "Where each rank was") {
		t.Errorf("a completed run's Ranks view says where its ranks were stopped:\n%s", s)
	}
}

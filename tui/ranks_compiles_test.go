package tui

import (
	"strings"
	"testing"
)

// The Ranks view and the ranks strip of the diverged hang say that its ranks' probes recorded different numbers of
// compiles when the tool stopped it (rank agreement's Compiles, the report's words): they said only "not
// compared: the run did not complete".
func TestRanksViewSaysRanksCompiledDifferently(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := openModel(t, w, 40, recordedRun("diverged-hang", "0001-breaks"))
		want := "compiles differ when stopped" // at 80 columns "compiles differ (R)", beside the checklist's progress
		if w == 80 {
			want = "compiles differ (R)"
		}
		if s := plain(m); !strings.Contains(s, want) {
			t.Errorf("%d columns: the strip does not say the compiles differ:\n%s", w, s)
		}
		press(m, "R")
		s := strings.Join(strings.Fields(strings.NewReplacer("┃", " ", "│", " ").Replace(plain(m))), " ") // the summary wraps
		for _, want := range []string{"when torchtriage stopped the run, the ranks' probes had recorded different numbers of compiles",
			"rank 0: 1 compile (last: [0/0] step at skip_sync.py:6)", "rank 1: 2 compiles (last: [1/0]"} {
			if !strings.Contains(s, want) {
				t.Errorf("%d columns: Ranks view lacks %q:\n%s", w, want, plain(m))
			}
		}
	}
	m := openModel(t, 120, 40, recordedRun("stopped-dist-hang", "0001-breaks")) // the same compiles: nothing of it
	press(m, "R")
	if s := plain(m); strings.Contains(s, "compiles differ") || strings.Contains(s, "numbers of compiles") {
		t.Errorf("ranks whose probes recorded the same compiles:\n%s", s)
	}
}

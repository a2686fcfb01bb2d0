package tui

import (
	"strings"
	"testing"
)

// A 2-rank run still going whose ranks differ so far (r05_dist_c10d: rank 0 broke at line 10 and recompiled the
// resume there, rank 1 has not shown either yet). Rank agreement earns no difference of it yet (triage's SoFar):
// the strip says "differ so far", the Ranks view the report's words and the groups as so far, the breaks list has
// no "ranks differ" finding; none of them says "agree" (it said "agree so far" once triage left the difference
// unearned) or "⚠ disagree". Once the run completes the difference is earned; once it stops short it is not
// compared.
func TestLiveRanksThatDifferSoFar(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := liveModel(t, w, 32)
		feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", -1)
		s := plain(m)
		strip := lineWith(t, s, "ranks r0")
		if !strings.Contains(strip, "differ so far") || strings.Contains(strip, "agree") {
			t.Errorf("%d columns: strip %q", w, strip)
		}
		if strings.Contains(s, "ranks differ ") || strings.Contains(s, "RANKS") {
			t.Errorf("%d columns: a rank-disagreement finding of a live run:\n%s", w, s)
		}
		press(m, "R")
		s = plain(m)
		joined := strings.Join(strings.Fields(strings.NewReplacer("┃", " ", "│", " ").Replace(s)), " ")
		for _, want := range []string{
			"ranks differ so far: rank 0 has what rank 1 has not shown (yet): graph break print() at r05_dist_c10d.py:10",
			"not compared: the run is still running",
			"rank 1 (reference) rank 0 extra so far: graph break print() at r05_dist_c10d.py:10",
		} {
			if !strings.Contains(joined, want) {
				t.Errorf("%d columns: Ranks view lacks %q:\n%s", w, want, s)
			}
		}
		for _, bad := range []string{"agree", "differs from", "extra:"} {
			if strings.Contains(s, bad) {
				t.Errorf("%d columns: Ranks view says %q:\n%s", w, bad, s)
			}
		}
	}
	for _, c := range []struct {
		exit      int
		want, bad string
	}{{0, "⚠ disagree", "so far"}, {1, "differ where the log ends", "so far"}} { // a failed run: its difference, not earned
		m := liveModel(t, 140, 32)
		feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", c.exit)
		if strip := lineWith(t, plain(m), "ranks r0"); !strings.Contains(strip, c.want) || strings.Contains(strip, c.bad) {
			t.Errorf("exit %d: strip %q", c.exit, strip)
		}
	}
}

package tui

import (
	"strings"
	"testing"
)

// The checklist cut the eager-vs-compiled verdict under step 1 at the box's width ("inconclusive: wall time
// includes compile time; give --metric REGEX (e.g. 'step_m…" at 80 columns), and its title hid the next step
// ("Diagnose a compile regression · 1 of 6 done · …"): the verdict wraps, and a title that does not fit names the
// The checklist's title hid the next step at 80 columns ("Diagnose a compile regression · 0 of 6 done · …"), and
// the eager-vs-compiled verdict under step 1 was cut at the box's width ("keep compile: metric 12 compiled vs 10
// eager (20.0% b…" at 60 columns): a title that does not fit names the next step by its number, and the verdict
// wraps.
func TestChecklistSentencesAreWhole(t *testing.T) {
	for _, w := range []int{60, 80} {
		m := liveModel(t, w, 40)
		feedRun(t, m, 1, "", "eager", "", 0)
		feedRun(t, m, 2, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
		v1, v2 := 10.0, 12.0
		m.run(1).meta.Metric, m.run(2).meta.Metric = &v1, &v2
		v := m.baselineVerdict()
		press(m, "n")
		s := plain(m)
		if m.screen != screenGuide || !strings.Contains(squeeze(s), squeeze(v)) {
			t.Errorf("%d: the verdict %q is not whole:\n%s", w, v, s)
		}
		if title := lineWith(t, s, "Diagnose a compile regression"); strings.Contains(title, "…") || !strings.Contains(title, "next: step 2/6") {
			t.Errorf("%d: title: %q", w, title)
		}
	}
}

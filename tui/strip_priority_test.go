package tui

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/tui/cells"
)

// The ranks strip keeps the checklist's progress beside the agreement: at 80 columns "compiles differ when stopped
// (R)" of the diverged hang, "differ so far (R)" of a live run and "not compared (R)" of a lagging rank left only
// "step 2/6 ▸ n", and at 120 the diverged hang's whole compiles words did too. The agreement now gives its detail
// up to the progress's count, which first shortens to "step 2/6 · 0 done" (the doc comment of ranksStrip).
func TestRanksStripKeepsTheChecklistProgress(t *testing.T) {
	for _, c := range []struct {
		in    string
		w     int
		wants []string
	}{
		// the diverged hang's next step is the hang's ("unblock the ranks first"), whose words take the room
		{recordedRun("diverged-hang", "0001-breaks"), 80, []string{" · compiles differ (R)   ", "   unblock the ranks first ▸ n"}},
		{recordedRun("diverged-hang", "0001-breaks"), 120, []string{
			" · compiles differ when stopped; not compared (R)   ", "   0 of 6 done · unblock the ranks first ▸ n"}},
		{recordedRun("lagging-rank", "0001-breaks"), 80, []string{" · not compared (R)   ", "   step 2/6 · 0 done ▸ n"}},
		{recordedRun("lagging-rank", "0001-breaks"), 120, []string{" · not compared: the run did not complete   ",
			"   0 of 6 done · step 2/6 Find graph… ▸ n"}},
		{recordedRun("quiet-rank", "0013-breaks"), 80, []string{" · ⚠ disagree: rank 1 +1 extra (R)   ", "   step 2/6 · 1 done ▸ n"}},
		{"r05_dist_c10d.triage.log", 80, []string{" · ⚠ disagree (R)   ", "   1 of 6 done · step 2/6 ▸ n"}},
		{"r05_dist_c10d.triage.log", 120, []string{" · ⚠ disagree: rank 0 +2 extra (R)   ",
			"   1 of 6 done · step 2/6 Find graph breaks and… ▸ n"}},
	} {
		m := openModel(t, c.w, 24, c.in)
		checkStrip(t, c.in, c.w, plain(m), c.wants)
	}
	for w, wants := range map[int][]string{
		80:  {" · differ so far (R)   ", "   step 2/6 · 0 done ▸ n"},
		120: {" · differ so far: rank 0 +2 extra; not compared yet (R)   ", "   0 of 6 done · step 2/6 ▸ n"},
	} {
		m := liveModel(t, w, 32)
		feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", -1)
		checkStrip(t, "live r05_dist_c10d", w, plain(m), wants)
	}
}

// checkStrip: the strip (the screen's line above the footer) fills the width and holds each of wants.
func checkStrip(t *testing.T, in string, w int, screen string, wants []string) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	strip := lines[len(lines)-2]
	if cells.Width(strip) != w {
		t.Errorf("%s at %d: strip %d wide: %q", in, w, cells.Width(strip), strip)
	}
	for _, want := range wants {
		if !strings.Contains(strip, want) {
			t.Errorf("%s at %d: strip lacks %q: %q", in, w, want, strip)
		}
	}
}

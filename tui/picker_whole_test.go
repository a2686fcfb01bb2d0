package tui

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// The preset picker cut each preset's purpose and note at its box's width (80 columns: "Why it recompiles: every
// failing guard, plus dynamic-shape dec…", "The trace/ folder of the run holds one structured log per rank
// (tlparse…"): they wrap now, and moving down the list keeps the selected preset whole on screen.
func TestPresetPickerSentencesAreWhole(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 32}} {
		m := liveModel(t, size[0], size[1])
		feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
		press(m, "p")
		if !m.pre.picking {
			t.Fatal("p should open the picker")
		}
		for i, p := range runs.Presets() {
			if i > 0 {
				press(m, "down")
			}
			s := plain(m)
			if lines := strings.Split(s, "\n"); len(lines) != size[1] {
				t.Fatalf("%v: %d lines", size, len(lines))
			}
			for _, want := range []string{p.Name + p.Purpose, p.Note} {
				if !strings.Contains(squeeze(s), squeeze(want)) {
					t.Errorf("%v: preset %s: %q not whole:\n%s", size, p.Name, want, s)
				}
			}
			if strings.Contains(s, "…┃") {
				t.Errorf("%v: a cut line:\n%s", size, s)
			}
		}
	}
}

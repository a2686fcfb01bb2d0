package tui

import (
	"strings"
	"testing"
)

// A recompile's detail opens at its title: with many guard lines its evidence cursor is far down, and the view
// opened scrolled to it, the title and the guard summary out of sight.
func TestRecompileDetailOpensAtItsTitle(t *testing.T) {
	for _, file := range []string{"r12_limit_str.triage.log", "gb_recompile.triage.log"} {
		m := liveModel(t, 80, 24)
		feedRun(t, m, 1, file, "breaks", "graph_breaks,recompiles", 0)
		m.focusPane(paneRecompiles)
		for i := 0; i < m.lists[paneRecompiles].len(); i++ {
			m.lists[paneRecompiles].idx = i
			press(m, "enter")
			lines := strings.Split(plain(m), "\n")
			if m.screen != screenDetail || len(lines) < 3 || !strings.Contains(lines[2], "recompile: ") && !strings.Contains(lines[2], "limit hit: ") {
				t.Errorf("%s row %d: the detail does not open at its title:\n%s", file, i, plain(m))
			}
			press(m, "esc")
		}
	}
}

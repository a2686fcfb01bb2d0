package tui

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestRandomKeysNeverBreakTheScreen presses thousands of random keys on sessions in different states (no run
// yet, opened logs, live runs) and checks that nothing panics and every frame fits the terminal.
func TestRandomKeysNeverBreakTheScreen(t *testing.T) {
	keys := []string{"up", "down", "left", "right", "tab", "shift+tab", "enter", "esc", "space", "backspace",
		"r", "p", "/", "l", "h", "d", "R", "t", "n", "N", "x", "?", "s", "c", "w", "F", "f", "g", "G", "y", "a", "1", "q"}
	models := map[string]func() *Model{
		"no run yet": func() *Model { return liveModel(t, 90, 26) },
		"opened":     func() *Model { return openModel(t, 120, 32, "r05_dist_c10d.triage.log", "gb_recompile.triage.log") },
		"live runs": func() *Model {
			m := liveModel(t, 100, 30)
			feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
			feedRun(t, m, 2, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", -1)
			return m
		},
	}
	for name, mk := range models {
		rng := rand.New(rand.NewSource(int64(len(name))))
		m := mk()
		for i := 0; i < 1500; i++ {
			k := keys[rng.Intn(len(keys))]
			m.Update(keyMsg(k))
			if m.prompt != nil && m.prompt.text == quitQuestion {
				press(m, "n") // stay in the session
			}
			checkFits(t, fmt.Sprintf("%s after %d keys (last %q)", name, i+1, k), m.render(), m.w, m.h)
		}
	}
}

package tui

import (
	"strings"
	"testing"
)

// The Ranks view words rank agreement as the report does, from the one summary: of a test-only copy of
// quiet-rank's run whose rank 0 probe counts 3 frame compiles (syntheticThreeFrames), rank 0 is compared on graph
// breaks (it lacks rank 1's) and its recompiles are named as not compared.
func TestRanksViewOfARankComparedOnSomeQuantities(t *testing.T) {
	m := openModel(t, 120, 40, syntheticThreeFrames(t))
	press(m, "R")
	s := plain(m)
	flat := strings.Join(strings.Fields(strings.ReplaceAll(s, "┃", " ")), " ")
	for _, want := range []string{"rank 0 differs from rank 1: missing graph break print() at dist.py:8",
		"rank 0 as its probe counted (no log record names it): no graph break; its recompiles not compared (its probe counted 3 frame compiles, which may be recompiles)"} {
		if !strings.Contains(flat, want) {
			t.Errorf("Ranks view lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "not compared: rank 0") {
		t.Errorf("Ranks view:\n%s", s)
	}
}

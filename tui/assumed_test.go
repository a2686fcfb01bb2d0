package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
)

// A recompile the list marks expected because automatic dynamic is assumed to have made the size a symbol (no
// dynamic log or trace shows it: dynfalse-214's recompile lines alone, a dynamic=False run) is marked as a guess:
// "exp?" in its row and "expected if automatic dynamic is on (assumed, not shown)" in its detail. It read "exp"
// and "expected by design". A recompile the dynamic log confirms (dynauto-214) keeps "exp".
func TestAssumedExpectationIsMarkedAsAGuess(t *testing.T) {
	src := filepath.Join("..", "testdata", "recorded", "dynamic-false")
	path := testlogs.LinesWith(t, filepath.Join(src, "dynfalse-214.log"), "[__recompiles]")
	m := openPath(t, 120, 32, path)
	if row := lineWith(t, plain(m), "dynfalse.py:3"); !strings.Contains(row, "exp?") {
		t.Errorf("assumed: row %q", row)
	}
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "expected if automatic dynamic is on (assumed, not shown)") || strings.Contains(s, "expected by design") {
		t.Errorf("assumed: detail\n%s", s)
	}
	c := openPath(t, 120, 32, filepath.Join(src, "dynauto-214.log"))
	if row := lineWith(t, plain(c), "dynauto.py:3"); !strings.Contains(row, "exp") || strings.Contains(row, "exp?") {
		t.Errorf("confirmed: row %q", row)
	}
}

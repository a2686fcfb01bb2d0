package tui

import (
	"path/filepath"
	"strings"
	"testing"
)

// The TUI says what the report says of 2.6's opt.step break (testdata/recorded/train-loop, real 2.6): under an
// LR scheduler, seen by the probe (0013), the row is by design ("exp") and the detail's title and Basis line name
// the probe's basis; the program's own wrapper (0015) is no "exp" row and its function is named; without the
// probe's scan (0011) the detail says the cause is inferred. It said "inferred from the wording" of all three.
func TestOptimizerStepBasisInTheTUI(t *testing.T) {
	for _, c := range []struct {
		run, basis string
		exp        bool
	}{
		{"0013-breaks", "probe: Adam.step wrapped by the LR scheduler", true},
		{"0015-breaks", "probe: Adam.step replaced by the program's counted_step (wrapped_step.py:13)", false},
		{"0011-breaks", "inferred from the wording: opt.step was set on the optimizer object", false},
	} {
		m := openPath(t, 120, 50, filepath.Join("..", "testdata", "recorded", "train-loop", "runs", c.run))
		row := lineWith(t, plain(m), "opt.step wrapper")
		if strings.Contains(row, " exp ") != c.exp {
			t.Errorf("%s: row %q", c.run, row)
		}
		press(m, "enter")
		s := plain(m)
		flat := strings.Join(strings.Fields(strings.ReplaceAll(s, "┃", " ")), " ")
		if !strings.Contains(flat, "— "+c.basis) && !strings.Contains(flat, "by design ("+c.basis) {
			t.Errorf("%s: title does not say %q:\n%s", c.run, c.basis, s)
		}
		if !strings.Contains(flat, "Basis: "+strings.SplitN(c.basis, ":", 2)[0]) {
			t.Errorf("%s: no Basis line:\n%s", c.run, s)
		}
	}
}

package tui

import (
	"strings"
	"testing"
)

// A DDPOptimizer split (real 2.14.1 run, testdata/recorded/ddp-optimizer) is a kind of its own in the left list, by
// design: its row sat under "Graph breaks · 2 distinct · 6 records" as if it were one of them.
func TestDDPSplitIsNamedInTheLeftList(t *testing.T) {
	m := openModel(t, 120, 32, "../../testdata/recorded/ddp-optimizer/runs/0001-custom")
	s := plain(m)
	title := lineWith(t, s, "Breaks & more")
	if !strings.Contains(title, "1 DDPOptimizer split") {
		t.Errorf("left title %q", title)
	}
	if row := lineWith(t, s, "DDP bucket split"); !strings.Contains(row, "exp") {
		t.Errorf("the split's row is not marked expected: %q", row)
	}
}

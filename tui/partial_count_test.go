package tui

import (
	"path/filepath"
	"testing"
)

// Breaks seen while graph_breaks was off (the Tensor.item() warning prints without it) are a floor: the pane's
// title and the status line say "at least", as the report does.
func TestPartialBreakCountSaysAtLeast(t *testing.T) {
	rel := filepath.Join("..", "..", "testdata", "fixtures", "torch-2.14", "gb_recompile.no_torch_logs.log")
	for _, w := range []int{80, 120} {
		m := openModel(t, w, 24, rel) // openModel joins testdata/
		lineWith(t, plain(m), "Graph breaks · at least 1 distinct · 1 record ")
		lineWith(t, plain(m), "1 process · at least 1 break · recompiles not logged")
	}
}

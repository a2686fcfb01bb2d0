package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An input with no torch output shows no process: the status line does not claim "1 process".
func TestStatusLineWithoutTorchOutput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.log")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("testdata")
	relPath, err := filepath.Rel(abs, empty) // openModel joins testdata/
	if err != nil {
		t.Fatal(err)
	}
	m := openModel(t, 80, 24, relPath)
	line := lineWith(t, plain(m), "no torch output: nothing counted ")
	if strings.Contains(line, "1 process") || strings.Contains(line, "0 breaks") {
		t.Errorf("status line %q", line)
	}
	for _, title := range []string{"Graph breaks · not counted (no torch output)", "Recompiles · not counted (no torch output)"} {
		lineWith(t, plain(m), title) // a pane of a run without torch output counts nothing, not 0
	}
}

// Ranks whose graph breaks and recompiles were not logged are not called "agree" (nor "disagree"): the status
// line and the Ranks view say they were not compared, and show no 0 for a count that could not print.
func TestRanksNotComparedWithoutLogging(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "torch-2.11-cuda", "g09a_nccl_same_gpu.no_torch_logs.log"))
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "nccl.log")
	if err := os.WriteFile(log, data, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("testdata")
	rel, _ := filepath.Rel(abs, log)
	for _, w := range []int{80, 120} {
		m := openModel(t, w, 32, rel)
		line := lineWith(t, plain(m), "ranks r0")
		if strings.Contains(line, "agree") || !strings.Contains(line, "not compared") || strings.Contains(line, "0b") {
			t.Errorf("%d columns: status line %q", w, line)
		}
		press(m, "R")
		view := plain(m)
		if strings.Contains(view, "ranks agree") || strings.Contains(view, "(reference)") {
			t.Errorf("%d columns: Ranks view claims a comparison:\n%s", w, view)
		}
		lineWith(t, view, "not compared: graph breaks and recompiles show no sign")
		// each rank died of the NCCL error: the row says so (a single "errors" column of compile errors read 0), a
		// floor as every count of a run a process died in ("≥1 runtime error", as the report's Per rank)
		if row := lineWith(t, view, "   r1 "); !strings.Contains(row, "–") || !strings.HasSuffix(strings.TrimRight(row, " ┃"), " ≥1") {
			t.Errorf("%d columns: per-rank row %q: counts what was not logged, or not its runtime error", w, row)
		}
	}
}

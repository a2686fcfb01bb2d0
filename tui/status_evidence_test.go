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
	for _, title := range []string{"Graph breaks · not counted", "Recompiles · not counted"} {
		lineWith(t, plain(m), title) // a pane of a run without torch output counts nothing, not 0
	}
}

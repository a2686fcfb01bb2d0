package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// A run that printed no torch output, against the run before it of the same command, compares nothing: the runs
// list said "vs #1: no change · graph breaks, recompiles, rank agreement not compared", where the bringup log says
// only what was not compared (no "no change": nothing was compared to be unchanged).
func TestRunsListSaysNoChangeOnlyOfWhatItCompared(t *testing.T) {
	store := t.TempDir()
	exit0 := 0
	meta := func(id int) runs.Meta {
		return runs.Meta{ID: id, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: []string{"python", "repro.py"},
			Argv: []string{"python", "repro.py"}, Cwd: "/home/dev", Start: fixedNow.Add(time.Duration(id) * time.Minute),
			DurationS: 5, State: runs.StateExited, ExitCode: &exit0}
	}
	writeStoredRun(t, store, meta(1), "gb_recompile.triage.log")
	dir := writeStoredRun(t, store, meta(2), "")
	if err := os.WriteFile(filepath.Join(dir, "stderr.log"), []byte("hello, no torch here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := storyModel(t, 160, 40, store)
	openRuns(t, m)
	line := lineWith(t, plain(m), "vs #1")
	if strings.Contains(line, "no change") || !strings.Contains(line, "not compared") {
		t.Errorf("run 2 against run 1: %q", line)
	}
}

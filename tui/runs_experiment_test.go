package tui

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// The runs of one ladder are one experiment: the runs view names it and each run's tier; a run of no experiment
// says nothing of one.
func TestRunsViewShowsALaddersExperiment(t *testing.T) {
	store := t.TempDir()
	exit0, exit1 := 0, 1
	for i, b := range []string{"eager", "inductor"} {
		code := &exit0
		if b == "inductor" {
			code = &exit1
		}
		writeStoredRun(t, store, runs.Meta{ID: i + 1, Preset: "breaks", TorchLogs: "graph_breaks,recompiles",
			UserArgv: []string{"python3", "x.py"}, Argv: []string{"python3", "x.py"}, Start: fixedNow.Add(-60e9), State: runs.StateExited,
			ExitCode: code, Experiment: &runs.Experiment{ID: "ladder-20261207-211218", Kind: "ladder", Step: b}}, "gb_recompile.triage.log")
	}
	writeStoredRun(t, store, runs.Meta{ID: 3, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: []string{"python3", "x.py"},
		Argv: []string{"python3", "x.py"}, Start: fixedNow.Add(-30e9), State: runs.StateExited, ExitCode: &exit0}, "gb_recompile.triage.log")
	m := storeModel(t, 160, 40, store)
	openRuns(t, m)
	screen := plain(m)
	if strings.Count(screen, "(ladder-20261207-211218 · ") != 2 || !strings.Contains(screen, "(ladder-20261207-211218 · eager)") ||
		!strings.Contains(screen, "(ladder-20261207-211218 · inductor)") {
		t.Errorf("want the two ladder runs (and only them) tagged with the experiment and their tier:\n%s", screen)
	}
}

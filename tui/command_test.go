package tui

import (
	"strings"
	"testing"
)

// The header names the script behind `conda run`, not the wrapper; i shows the whole command.
func TestHeaderNamesTheScriptAndIShowsTheFullCommand(t *testing.T) {
	m := liveModel(t, 80, 24)
	m.opt.spec.Argv = []string{"conda", "run", "--no-capture-output", "-n", "torch", "torchrun", "--nproc-per-node", "2",
		"r05_dist_c10d.py"}
	feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
	head := strings.SplitN(plain(m), "\n", 2)[0]
	if !strings.Contains(head, "r05_dist_c10d.py") || strings.Contains(head, "conda") {
		t.Fatalf("header should name r05_dist_c10d.py, not conda: %q", head)
	}
	press(m, "i")
	out := plain(m)
	if m.screen != screenInfo || !strings.Contains(out, "conda run --no-capture-output -n torch torchrun") {
		t.Fatalf("i should show the full command:\n%s", out)
	}
	press(m, "q")
	if m.screen != screenMain {
		t.Fatalf("q should close the info screen")
	}
}

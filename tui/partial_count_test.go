package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Breaks seen while graph_breaks was off (the Tensor.item() warning prints without it) are a floor: the pane's
// title and the status line say "at least", as the report does.
func TestPartialBreakCountSaysAtLeast(t *testing.T) {
	rel := filepath.Join("..", "..", "testdata", "fixtures", "torch-2.14", "gb_recompile.no_torch_logs.log")
	for _, w := range []int{80, 120} {
		m := openModel(t, w, 24, rel) // openModel joins testdata/
		lineWith(t, plain(m), "Graph breaks · at least 1 distinct · 1 record ")
		lineWith(t, plain(m), "1 process · at least 1 break · recompiles unknown") // logs alone: nothing says which names were on
	}
}

// A torchrun job without rank prefixes is not "1 process" in the status line, nor "single process" in the Ranks view.
func TestTorchrunJobWithoutRankPrefix(t *testing.T) {
	rel := filepath.Join("..", "..", "testdata", "fixtures", "torch-2.14", "r06_dist_funcol.triage.log")
	m := openModel(t, 80, 24, rel)
	lineWith(t, plain(m), " torchrun job, no rank prefix · ")
	press(m, "R")
	lineWith(t, plain(m), "torchrun job: no rank prefixes in the log ([rankN]:), ranks not compared")
}

// One rank seen is not "single process: no rank prefixes": the lines carry [rank0]:.
func TestRanksViewOfOneRank(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "torch-2.14", "ddp_2ranks.ddp.log"))
	if err != nil {
		t.Fatal(err)
	}
	var rank0 []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasPrefix(l, "[rank1]") {
			rank0 = append(rank0, l)
		}
	}
	log := filepath.Join(t.TempDir(), "rank0.log")
	os.WriteFile(log, []byte(strings.Join(rank0, "")), 0o644)
	abs, _ := filepath.Abs("testdata")
	rel, _ := filepath.Rel(abs, log)
	m := openModel(t, 80, 24, rel)
	press(m, "R")
	view := plain(m)
	lineWith(t, view, " only rank 0 seen: nothing to compare")
	if strings.Contains(view, "no rank prefixes") {
		t.Errorf("Ranks view:\n%s", view)
	}
}

// A run that did not complete shows nothing of what it never reached: an empty pane of a run that died after its
// first break does not say "no recompiles" of the whole run.
func TestEmptyPaneOfARunThatDidNotComplete(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "torch-2.14", "gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.log") // its first break, then the run died
	os.WriteFile(cut, []byte(strings.Join(strings.SplitAfter(string(data), "\n")[:30], "")), 0o644)
	abs, _ := filepath.Abs("testdata")
	rel, _ := filepath.Rel(abs, cut)
	m := liveModel(t, 100, 30)
	feedRun(t, m, 1, rel, "breaks", "graph_breaks,recompiles", 1)
	s := plain(m)
	if strings.Contains(s, "│ no recompiles  ") || !strings.Contains(s, "no recompiles up to where the run stopped") {
		t.Errorf("screen:\n%s", s)
	}
}

// A compile error the program caught (a run that exited 0: no process died of it, the report counts "0 (1 caught)")
// is no ERROR row counted as the report's compile errors: the row says CATCH and the pane counts it as caught.
func TestCaughtCompileErrorRow(t *testing.T) {
	rel := filepath.Join("..", "..", "testdata", "recorded", "caught-compile", "runs", "0001-breaks")
	m := openModel(t, 120, 32, rel)
	s := plain(m)
	if row := lineWith(t, s, "caught_quiet.py:11"); !strings.Contains(row, "CATCH") || strings.Contains(row, "ERROR") {
		t.Errorf("row %q", row)
	}
	lineWith(t, s, "Breaks & errors · 1 caught compile error")
	lineWith(t, s, "verdict: not steady: 1 compile error caught by the program")
}

// One recompile is "recompiles 1", as the report counts it (the title read "1 compile event", a count of records).
func TestTimelineTitleCountsOneEvent(t *testing.T) {
	m := openModel(t, 100, 24, filepath.Join("..", "..", "testdata", "fixtures", "torch-2.6", "r03_cache_limit.guards.log"))
	press(m, "t")
	s := plain(m)
	lineWith(t, s, "(log time stamps)")
	lineWith(t, s, "recompiles 1 · limit hits 0")
}

// One probed process has nothing to match: the Ranks view said "1 processes: versions, compile config and
// environment match" of the caught_quiet run, a comparison that was never made.
func TestConfigParityOfOneProcess(t *testing.T) {
	m := openModel(t, 120, 32, filepath.Join("..", "..", "testdata", "recorded", "caught-compile", "runs", "0001-breaks"))
	press(m, "R")
	s := plain(m)
	if strings.Contains(s, "match") {
		t.Errorf("Ranks view:\n%s", s)
	}
	lineWith(t, s, "1 process probed: no other to compare its versions, compile config and environment with")
}

// Lines of two processes (glog's pid) without a rank prefix are no "1 process" in the status line, nor "single
// process" in the Ranks view (two real 2.14 runs in one file).
func TestTwoProcessesWithoutRankPrefixInTheTUI(t *testing.T) {
	var both []byte
	for _, name := range []string{"r01_branch_print.triage.log", "r02_item.triage.log"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "torch-2.14", name))
		if err != nil {
			t.Fatal(err)
		}
		both = append(both, data...)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "two.log"), both, 0o644)
	abs, _ := filepath.Abs("testdata")
	rel, _ := filepath.Rel(abs, filepath.Join(dir, "two.log"))
	m := openModel(t, 100, 24, rel)
	lineWith(t, plain(m), " 2 processes, no rank prefix · ")
	press(m, "R")
	if s := plain(m); strings.Contains(s, "single process") {
		t.Errorf("Ranks view:\n%s", s)
	}
	lineWith(t, plain(m), "2 processes: no rank prefixes in the log ([rankN]:), ranks not compared")
}

package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/report"
)

// The runs view's line of an opened input says what the counts lines say: a file with no torch output counts
// nothing (not "0 breaks · 0 recompiles · 0 limit hits"), and logs that show no sign graph_breaks was on give no
// break count (not "0 breaks") beside the recompiles they hold.
func TestRunsViewCountsOfOpenedInputsAreEarned(t *testing.T) {
	data, err := os.ReadFile(testdataPath(t, "gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	recompile := strings.Join(lines[113:123], "") // the `scale == 2.0` recompile record alone
	if !strings.Contains(lines[113], "Recompiling function f") {
		t.Fatalf("line 114 is not the recompile record's head: %q", lines[113])
	}
	for _, c := range []struct {
		name, text string
		want, bad  []string
	}{
		{"empty.log", "", []string{"no torch output"}, []string{"0 breaks", "0 recompiles", "0 limit hits"}},
		{"recompile.log", recompile, []string{"breaks unknown", "1 recompile"}, []string{"0 breaks"}},
	} {
		path := filepath.Join(t.TempDir(), c.name)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		m := openPath(t, 120, 32, path)
		press(m, "h")
		s := plain(m)
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: runs view lacks %q:\n%s", c.name, w, s)
			}
		}
		for _, w := range c.bad {
			if strings.Contains(s, w) {
				t.Errorf("%s: runs view says %q:\n%s", c.name, w, s)
			}
		}
	}
}

// An opened run that compiled nothing (torch.compile off: testdata/recorded/compile-off, real 2.14.1) shows no
// "0 breaks" in the runs view: nothing could break.
func TestRunsViewOfACompileOffRun(t *testing.T) {
	path := filepath.Join("..", "testdata", "recorded", "compile-off", "runs", "0001-breaks")
	m := openPath(t, 120, 32, path)
	press(m, "h")
	if s := plain(m); strings.Contains(s, "0 breaks") || !strings.Contains(s, "torch.compile off") {
		t.Errorf("runs view:\n%s", s)
	}
}

// The main screen of a run that compiled nothing (torch.compile off) counts nothing: no "no graph breaks", no
// "0 breaks" in the status line, no checklist step done.
func TestMainScreenOfACompileOffRun(t *testing.T) {
	path := filepath.Join("..", "testdata", "recorded", "compile-off", "runs", "0001-breaks")
	m := openPath(t, 120, 32, path)
	s := plain(m)
	for _, bad := range []string{"no graph breaks", "no recompiles", "0 breaks", "0 recompiles", "of 6 done"} {
		if strings.Contains(s, bad) && !(bad == "of 6 done" && strings.Contains(s, " 0 of 6 done")) {
			t.Errorf("main screen says %q:\n%s", bad, s)
		}
	}
	if !strings.Contains(s, "torch.compile was off") {
		t.Errorf("main screen does not say torch.compile was off:\n%s", s)
	}
}

// The guide compares runs of one command only: "Confirm the steady state" needs a rerun of it (a run of another
// program that showed nothing new against the run before confirmed it), and the eager baseline is timed against a
// compiled run of it ("keep compile: metric 12 compiled vs 10 eager" of two programs).
func TestGuideComparesRunsOfTheSameCommand(t *testing.T) {
	for _, c := range []struct {
		step  string
		first []string // feedRun's file, preset, TORCH_LOGS of run 1
	}{
		{"steady", []string{"r06_dist_funcol.triage.log", "breaks", "graph_breaks,recompiles"}},
		{"baseline", []string{"", "eager", ""}},
	} {
		m := liveModel(t, 100, 40)
		feedRun(t, m, 1, c.first[0], c.first[1], c.first[2], 0)
		second := "gb_recompile.triage.log"
		if c.step == "steady" { // a rerun that is steady itself (TestGuideSteadyRerunIsEarned)
			second = "r06_dist_funcol.triage.log"
		}
		feedRun(t, m, 2, second, "breaks", "graph_breaks,recompiles", 0)
		v1, v2 := 10.0, 12.0
		m.run(1).meta.Metric, m.run(2).meta.Metric = &v1, &v2
		m.run(1).meta.UserArgv = []string{"python", "a.py"}
		m.run(2).meta.UserArgv = []string{"python", "b.py"}
		if _, done := m.nextStep(); slices.Contains(done, c.step) {
			t.Errorf("%s: a run of b.py after a run of a.py ticked it: done %v", c.step, done)
		}
		m.run(2).meta.UserArgv = []string{"python", "a.py"}
		if _, done := m.nextStep(); !slices.Contains(done, c.step) {
			t.Errorf("%s: two runs of a.py: done %v", c.step, done)
		}
	}
}

// While a 2-rank run still runs its ranks agree "so far", and once it stopped short they are not compared; only a
// completed run's ranks "agree".
func TestRanksStripOfLiveAndCutRuns(t *testing.T) {
	for _, c := range []struct {
		exit      int
		want, bad string
	}{{-1, "agree so far", "not compared"}, {1, "not compared: the run did not complete", " agree"}, {0, " agree", "not compared"}} {
		m := liveModel(t, 140, 32)
		feedRun(t, m, 1, "ddp_2ranks.ddp.log", "breaks", "graph_breaks,recompiles", c.exit)
		s := plain(m)
		strip := lineWith(t, s, "ranks r0")
		if !strings.Contains(strip, c.want) || strings.Contains(strip, c.bad) {
			t.Errorf("exit %d: strip %q", c.exit, strip)
		}
	}
}

// openPath is `torchtriage open PATH` of any path, loaded synchronously, at a size.
func openPath(t *testing.T, w, h int, path string) *Model {
	t.Helper()
	m := newModel(options{mode: modeOpen, paths: []string{path}, set: builtinSet(t)})
	m.now = func() time.Time { return fixedNow }
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(loadPaths([]string{path}, m.analyzer())) // as loadCmd reads them
	return m
}

// A run whose program silenced torch's logging while the probe counted a break (testdata/recorded/silenced-logging,
// real 2.14.1): the ranks strip said "1 process · 0 breaks · 0 recompiles" and the guide "2 of 6 done"; the log's
// zeros are no count, and no step is done on them.
func TestSilencedLogShowsNoZeroCounts(t *testing.T) {
	path := filepath.Join("..", "testdata", "recorded", "silenced-logging", "runs", "0001-breaks")
	m := openPath(t, 80, 24, path)
	s := plain(m)
	for _, bad := range []string{"0 breaks", "0 recompiles", "2 of 6 done", "no recompiles", "breaks not logged"} {
		if strings.Contains(s, bad) {
			t.Errorf("main view says %q:\n%s", bad, s)
		}
	}
	if !strings.Contains(s, "breaks not in the log") {
		t.Errorf("main view lacks the breaks' state:\n%s", s)
	}
}

// An eager and a compiled run of one command without --metric, the probe's compile time taken off the compiled
// run's wall time: whole-run wall times (start-up, import and warm-up in them) are an estimate, not the step times
// the baseline step asks for, so the step is not done on them (it read "✓ done · prefer eager").
func TestGuideBaselineOfWallTimesIsNotDone(t *testing.T) {
	m := wallTimePair(t, 100, 40)
	c, ok := m.baselineComparison()
	if !ok || c.Basis != "wall time less compile time" {
		t.Fatalf("comparison %+v", c)
	}
	if _, done := m.nextStep(); slices.Contains(done, "baseline") {
		t.Errorf("baseline done on wall times: %v (%s)", done, c.Verdict)
	}
}

// A run that exited 3 without an error: the guide's first line names the step once ("Find why the run failed
// first: the run exited with code 3 …"), not "First: find why the run failed first", and no crash.
func TestGuideOfAFailedRun(t *testing.T) {
	m := liveModel(t, 80, 24)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 3)
	press(m, "n")
	s := plain(m)
	if strings.Contains(s, "First: ") || strings.Contains(s, "crash") || !strings.Contains(s, "▸ Find why the run failed first: the run exited with code 3") {
		t.Errorf("guide:\n%s", s)
	}
}

// Ranks that logged the same but ran with different settings (testdata/recorded/automatic-dynamic-off 0029: rank
// 1 turned automatic dynamic off): the ranks strip said "agree".
func TestRanksStripOfDifferentSettings(t *testing.T) {
	m := openPath(t, 120, 32, filepath.Join("..", "testdata", "recorded", "automatic-dynamic-off", "runs", "0029-breaks"))
	strip := lineWith(t, plain(m), "ranks r0")
	if !strings.Contains(strip, "settings differ") || strings.Contains(strip, " agree") {
		t.Errorf("strip %q", strip)
	}
}

// "Confirm the steady state" is done only on a rerun that is steady itself and logged what it compares: it was
// ticked of a rerun whose verdict was "not steady" (its breaks unchanged) and of a guards-preset rerun that logged
// no graph breaks (an exploratory TUI run on real 2.14.1).
func TestGuideSteadyRerunIsEarned(t *testing.T) {
	for _, c := range []struct {
		name          string
		first, second [3]string // feedRun's file, preset, TORCH_LOGS
		done          bool
	}{
		{"not steady", [3]string{"gb_recompile.triage.log", "breaks", "graph_breaks,recompiles"}, [3]string{"gb_recompile.triage.log", "breaks", "graph_breaks,recompiles"}, false},
		{"breaks not logged", [3]string{"r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles"}, [3]string{"r05_dist_c10d.guards.log", "guards", "guards,recompiles"}, false},
		{"steady", [3]string{"r06_dist_funcol.triage.log", "breaks", "graph_breaks,recompiles"}, [3]string{"r06_dist_funcol.triage.log", "breaks", "graph_breaks,recompiles"}, true},
	} {
		m := liveModel(t, 100, 40)
		feedRun(t, m, 1, c.first[0], c.first[1], c.first[2], 0)
		feedRun(t, m, 2, c.second[0], c.second[1], c.second[2], 0)
		m.run(1).meta.UserArgv = []string{"python", "a.py"}
		m.run(2).meta.UserArgv = []string{"python", "a.py"}
		if _, done := m.nextStep(); slices.Contains(done, "steady") != c.done {
			t.Errorf("%s: done %v", c.name, done)
		}
	}
}

// The baseline step says the wall-time estimate once, not again under it cut with "…" (exploratory live run).
func TestGuideBaselineEstimateOnce(t *testing.T) {
	m := wallTimePair(t, 120, 60)
	press(m, "n")
	if s := plain(m); strings.Count(s, "an estimate from whole-run") != 1 || strings.Contains(s, "prefer eager") {
		t.Errorf("guide:\n%s", s)
	}
}

// wallTimePair is a session of an eager and a compiled run of one command without --metric, the probe's compile
// time beside the compiled run's wall time: the baseline step's wall-time estimate.
func wallTimePair(t *testing.T, w, h int) *Model {
	m := liveModel(t, w, h)
	feedRun(t, m, 1, "", "eager", "", 0)
	feedRun(t, m, 2, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	m.run(1).meta.UserArgv = []string{"python", "a.py"}
	m.run(2).meta.UserArgv = []string{"python", "a.py"}
	m.run(1).meta.DurationS, m.run(2).meta.DurationS = 4.55, 4.66
	m.run(2).probes = []report.ProcessInfo{{CompileTimes: map[string]float64{"_compile.compile_inner": 0.29}}}
	return m
}

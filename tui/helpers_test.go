package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/demo"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// TestMain lets the test binary be a run's reaper and the demo repro (`__demo-repro`), as the command line routes
// them.
func TestMain(m *testing.M) {
	session.MaybeRunReaper()
	if len(os.Args) > 1 && os.Args[1] == "__demo-repro" {
		os.Exit(demo.ReproMain(os.Args[2:], os.Stdout, os.Stderr, nil))
	}
	os.Exit(m.Run())
}

var fixedNow = time.Date(2025, 11, 21, 7, 48, 0, 0, time.UTC)

func builtinSet(t testing.TB) *playbooks.Set {
	t.Helper()
	set, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// fixtures are the logs the tests name by their file name alone (openModel, feedRun, feedChunks, writeStoredRun,
// testdataPath): each is read where it lies in the repo's top-level testdata/, the one copy every package's tests
// read, under the directory named here.
var fixtures = map[string]string{
	"c01_mlp.cold.log":                 "compile/torch-2.14",
	"minifier.aot_l4_accuracy.run.log": "compile-wrong/torch-2.14",
	"c01_mlp.warm.log":                 "compile/torch-2.14",
	"ddp_2ranks.ddp.log":               "fixtures/torch-2.14",
	"g03_cg_dynamic.perf.log":          "fixtures/torch-2.11-cuda",
	"g09a_nccl_same_gpu.triage.log":    "fixtures/torch-2.11-cuda",
	"gb_recompile.triage.log":          "fixtures/torch-2.14",
	"r05_dist_c10d.guards.log":         "fixtures/torch-2.14",
	"r05_dist_c10d.trace":              "fixtures/torch-2.14",
	"r05_dist_c10d.triage.log":         "fixtures/torch-2.14",
	"r06_dist_funcol.triage.log":       "fixtures/torch-2.14",
	"r07_fullgraph.triage.log":         "fixtures/torch-2.14",
	"r12_limit_str.triage.log":         "fixtures/torch-2.14",
}

// testdataPath is the path of a file a test names: one of fixtures by its name (testlogs.Path: ../testdata/…),
// else a path under tui/testdata, which holds the golden files (the tests' ../../testdata/… and the temp-dir
// paths made relative to it name files outside it).
func testdataPath(t testing.TB, name string) string {
	t.Helper()
	if dir, ok := fixtures[name]; ok {
		return testlogs.Path(t, dir, name)
	}
	return filepath.Join("testdata", name)
}

// openModel is `torchtriage open` of testdata files (testdataPath), loaded synchronously, at a size.
func openModel(t testing.TB, w, h int, files ...string) *Model {
	t.Helper()
	var paths []string
	for _, f := range files {
		paths = append(paths, testdataPath(t, f))
	}
	m := newModel(options{mode: modeOpen, paths: paths, set: builtinSet(t)})
	m.now = func() time.Time { return fixedNow }
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(loadPaths(paths, m.analyzer())) // as loadCmd reads them
	return m
}

// plain is the screen without colours.
func plain(m *Model) string { return ansi.Strip(m.render()) }

func press(m *Model, keys ...string) tea.Cmd {
	var last tea.Cmd
	for _, k := range keys {
		_, last = m.Update(keyMsg(k))
	}
	return last
}

// searched runs a log search's command (as the program would) and hands the model its result.
func searched(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case searchMsg:
		m.Update(msg)
	case tea.BatchMsg:
		for _, c := range msg {
			searched(m, c)
		}
	}
}

// keyMsg is the key press whose String() is k, as the terminal would send it.
func keyMsg(k string) tea.KeyPressMsg {
	named := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp,
		"down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "backspace": tea.KeyBackspace,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd}
	switch {
	case k == "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case k == "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case strings.HasPrefix(k, "ctrl+"):
		return tea.KeyPressMsg{Code: []rune(k[5:])[0], Mod: tea.ModCtrl}
	}
	if c, ok := named[k]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

func testBinary(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// liveModel is a `torchtriage run` session that launches nothing: tests feed it runs with feedRun.
func liveModel(t testing.TB, w, h int) *Model {
	t.Helper()
	m := newModel(options{mode: modeRun, spec: runs.Spec{Argv: []string{"python", "repro.py"}, Preset: "breaks",
		TorchVersion: "2.14"}, set: builtinSet(t), noLaunch: true})
	m.now = func() time.Time { return fixedNow }
	t.Cleanup(m.sess.Stop)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// feedRun plays a fixture log through the feed's per-run state (as the runner's events would arrive: the log on
// stderr, then the exit) and hands the model the batch. exit < 0 leaves the run going.
func feedRun(t testing.TB, m *Model, id int, file, preset, torchLogs string, exit int) *runView {
	t.Helper()
	var data []byte
	if file != "" {
		var err error
		if data, err = os.ReadFile(testdataPath(t, file)); err != nil {
			t.Fatal(err)
		}
	}
	start := fixedNow.Add(-41 * time.Second)
	lr := session.NewFollower(id, start)
	meta := runs.Meta{ID: id, Name: fmt.Sprintf("%04d-%s", id, preset), Preset: preset, TorchLogs: torchLogs,
		Start: start, State: runs.StateRunning}
	lr.Apply(session.Event{RunID: id, Kind: session.EventOutput, Stream: "stderr", Data: data}, start.Add(time.Second))
	if exit >= 0 {
		end := fixedNow
		done := meta
		done.State, done.ExitCode, done.End, done.DurationS = runs.StateExited, &exit, &end, 41
		lr.Apply(session.Event{RunID: id, Kind: session.EventExited, Meta: &done, Time: end}, end)
	} else {
		lr.Flush()
	}
	b := lr.Batch(m.analyzer(), fixedNow)
	if b.Meta == nil {
		b.Meta = &meta
	}
	m.Update(batchMsg{b})
	r := m.run(id)
	if r.sig == "" {
		r.sig = m.pre.signature()
	}
	m.show(r)
	return r
}

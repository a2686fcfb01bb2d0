package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// writeStoredRun lays out one run directory as the runner does (NNNN-preset/ with meta.json) with a testdata
// log as its stderr.log, and returns the directory.
func writeStoredRun(t testing.TB, store string, m runs.Meta, log string) string {
	t.Helper()
	m.Name = fmt.Sprintf("%04d-%s", m.ID, m.Preset)
	dir := filepath.Join(store, m.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if log != "" {
		data, err := os.ReadFile(testdataPath(t, log))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "stderr.log"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m.Env = map[string]string{"PYTHONUNBUFFERED": "1", "TORCH_LOGS": m.TorchLogs}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// bringupStore is a stored session of one 2-rank repro: 1 with c10d collectives (rank 0 prints: a print break,
// the ranks disagree), 2 the fix with functional collectives, 3 the fixed repro under the guards preset.
func bringupStore(t testing.TB) string {
	t.Helper()
	store := t.TempDir()
	exit0 := 0
	meta := func(id int, preset, logs string, min int) runs.Meta {
		return runs.Meta{ID: id, Preset: preset, TorchLogs: logs, UserArgv: []string{"python", "repro.py"},
			Argv: []string{"torchrun", "--nproc-per-node", "2", "repro.py"}, Nproc: 2, Cwd: "/home/dev/bringup",
			Start: fixedNow.Add(time.Duration(min) * time.Minute), DurationS: 41, State: runs.StateExited, ExitCode: &exit0}
	}
	writeStoredRun(t, store, meta(1, "breaks", "graph_breaks,recompiles", 0), "r05_dist_c10d.triage.log")
	m2 := meta(2, "breaks", "graph_breaks,recompiles", 12)
	v := 24.5
	m2.Metric = &v
	writeStoredRun(t, store, m2, "r06_dist_funcol.triage.log")
	writeStoredRun(t, store, meta(3, "guards", "guards,recompiles", 30), "r05_dist_c10d.guards.log")
	return store
}

// storeModel is a live model whose session keeps its runs in store.
func storeModel(t testing.TB, w, h int, store string) *Model {
	t.Helper()
	m := liveModel(t, w, h)
	st, err := runs.OpenStore(store)
	if err != nil {
		t.Fatal(err)
	}
	m.opt.store = st
	m.sess = session.New(session.Options{Store: st, Analyzer: m.analyzer()})
	t.Cleanup(m.sess.Stop)
	return m
}

// storyModel is a session on the bringup store in which runs 2 and 3 were launched (run 1 is from an earlier
// session: only in the store).
func storyModel(t testing.TB, w, h int, store string) *Model {
	t.Helper()
	m := storeModel(t, w, h, store)
	m.opt.spec.Nproc = 2
	feedRun(t, m, 2, "r06_dist_funcol.triage.log", "breaks", "graph_breaks,recompiles", 0)
	feedRun(t, m, 3, "r05_dist_c10d.guards.log", "guards", "guards,recompiles", 0)
	return m
}

// openRuns presses h and runs the story build it asks for.
func openRuns(t testing.TB, m *Model) {
	t.Helper()
	cmd := press(m, "h")
	if cmd == nil {
		t.Fatal("opening the runs view with a run store should build the session story")
	}
	m.Update(cmd())
}

func TestRunsViewShowsTheSessionStory(t *testing.T) {
	m := storyModel(t, 160, 40, bringupStore(t))
	cmd := press(m, "h")
	if cmd == nil || !strings.Contains(plain(m), "building the session log…") {
		t.Fatalf("h should start the story build and say so:\n%s", plain(m))
	}
	m.Update(cmd())
	screen := plain(m)
	for _, want := range []string{
		"vs #1: fixed: print() breaks the graph in step (r05_dist_c10d.py:10) [gb-print]",
		"rank agreement not compared", // run 2 printed no record: no rank prefix, its ranks not compared
		"metric 24.5",
		"vs #2: expected, new: recompiles of step on size guards", // automatic dynamic's: no regression; not "no change to fix": graph breaks were not compared (as the log)
		"changed: preset breaks→guards",
		"graph breaks █▁  → –   recompiles █▁█ → 3", // run 3 logged no breaks: no newest value
		"breaks not logged · 3 recompiles",
		"3 stored, 2 this session",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("runs view lacks %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "building the session log") {
		t.Errorf("still building after the story arrived:\n%s", screen)
	}
	i3, i2, i1 := strings.Index(screen, "#3 "), strings.Index(screen, "#2 "), strings.Index(screen, "#1 ")
	if i1 < 0 || !(i3 < i2 && i2 < i1) {
		t.Fatalf("runs 3, 2 and 1 (the earlier session's) should be listed newest first:\n%s", screen)
	}
	// run 1 has no findings in memory: enter reads it from the store and shows it in place (it said to quit and
	// open it)
	runCmds(m, press(m, "down", "down", "enter"))
	if m.screen != screenMain || m.cur == nil || m.cur.id != 1 || m.cur.snap == nil || !strings.Contains(plain(m), "run 1 ·") {
		t.Errorf("enter on a stored run of an earlier session should show it:\n%s", plain(m))
	}
	press(m, "h", "G", "up", "enter")
	if m.screen != screenMain || m.cur.id != 2 {
		t.Errorf("enter on run 2 should show it: screen %v run %d", m.screen, m.cur.id)
	}
}

func TestAStaleStoryBuildIsDropped(t *testing.T) {
	store := bringupStore(t)
	m := storyModel(t, 120, 32, store)
	first := press(m, "h")
	second := press(m, "h", "h") // closed and opened again: a newer build
	newer := second()
	m.Update(newer)
	if m.storyv.building() || m.storyv.s == nil {
		t.Fatal("the newest build should be shown")
	}
	shown := m.storyv.s
	m.Update(first())
	if m.storyv.s != shown {
		t.Error("an older build replaced a newer one")
	}
}

func TestARunEndingRebuildsTheOpenStory(t *testing.T) {
	m := storyModel(t, 120, 32, bringupStore(t))
	openRuns(t, m)
	gen := m.storyv.gen
	feedRun(t, m, 4, "r06_dist_funcol.triage.log", "breaks", "graph_breaks,recompiles", 0)
	if m.storyv.gen != gen+1 || !strings.Contains(plain(m), "building the session log…") {
		t.Fatalf("a run ending while the runs view is open should rebuild the story (gen %d → %d)", gen, m.storyv.gen)
	}
	press(m, "esc")
	feedRun(t, m, 5, "r06_dist_funcol.triage.log", "breaks", "graph_breaks,recompiles", 0)
	if m.storyv.gen != gen+1 {
		t.Error("with the runs view closed, opening it builds the story: no rebuild when a run ends")
	}
}

func TestAFailedStoryBuildIsShown(t *testing.T) {
	store := bringupStore(t)
	m := storyModel(t, 120, 32, store)
	if err := os.RemoveAll(store); err != nil {
		t.Fatal(err)
	}
	openRuns(t, m)
	if s := plain(m); !strings.Contains(s, "session log: no run store at") || !strings.Contains(s, "#3 ") {
		t.Errorf("the error and the runs in memory should be shown:\n%s", s)
	}
}

func TestNoteIsSavedInMetaAndShownAfterTheRebuild(t *testing.T) {
	store := bringupStore(t)
	m := storyModel(t, 120, 32, store)
	openRuns(t, m)
	press(m, "down", "N") // run 2
	if !m.typing || m.noteFor == nil || m.noteFor.id != 2 || !strings.Contains(plain(m), "note for run 2: ") {
		t.Fatalf("N should open the input line on run 2's note:\n%s", plain(m))
	}
	for _, c := range "switched to funcol" {
		press(m, string(c))
	}
	cmd := press(m, "enter")
	if cmd == nil || m.typing {
		t.Fatal("enter should save the note with a command and close the input")
	}
	_, rebuild := m.Update(cmd())
	meta, err := runs.LoadRun(filepath.Join(store, "0002-breaks"))
	if err != nil || meta.Note != "switched to funcol" || meta.Metric == nil || *meta.Metric != 24.5 {
		t.Fatalf("meta.json after the note: %+v %v", meta, err)
	}
	if rebuild == nil || !strings.Contains(plain(m), "note saved on run 2") || strings.Contains(plain(m), "“switched to funcol”") {
		t.Fatalf("a saved note should be reported and the story rebuilt (the note comes with it):\n%s", plain(m))
	}
	m.Update(rebuild())
	if !strings.Contains(plain(m), "“switched to funcol”") {
		t.Fatalf("the note is not shown after the rebuild:\n%s", plain(m))
	}
	press(m, "N")
	if m.input.value != "switched to funcol" {
		t.Errorf("N should prefill the current note, got %q", m.input.value)
	}
	press(m, "x", "esc")
	if m.typing || m.noteFor != nil {
		t.Error("esc should close the note input")
	}
	if meta, _ := runs.LoadRun(filepath.Join(store, "0002-breaks")); meta.Note != "switched to funcol" {
		t.Errorf("esc changed the note: %q", meta.Note)
	}
}

func TestNoteErrorsAreShownInTheStatusLine(t *testing.T) {
	store := bringupStore(t)
	m := storyModel(t, 120, 32, store)
	// run 4 is still going according to its meta.json (another terminal's session): SetRunNote refuses it
	writeStoredRun(t, store, runs.Meta{ID: 4, Preset: "breaks", UserArgv: []string{"python", "repro.py"},
		State: runs.StateRunning}, "")
	openRuns(t, m)
	press(m, "up", "N", "x") // the cursor stayed on run 3, now below run 4
	cmd := press(m, "enter")
	if cmd == nil {
		t.Fatal("enter should try to save")
	}
	m.Update(cmd())
	if s := plain(m); !strings.Contains(s, "note not saved on run 4") || !strings.Contains(s, "still running") {
		t.Errorf("the refusal should be in the status line:\n%s", s)
	}
	// a run of this session that is still going is refused before typing
	feedRun(t, m, 5, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", -1)
	m.screen = screenRuns
	m.runsv.idx = 0
	if cmd := press(m, "N"); cmd != nil || m.typing || !strings.Contains(plain(m), "run 5 is still running") {
		t.Errorf("N on a running run: typing=%v\n%s", m.typing, plain(m))
	}
	// opened logs have no store to keep notes in
	o := openModel(t, 100, 30, "gb_recompile.triage.log")
	if cmd := press(o, "h"); cmd != nil {
		t.Error("opened logs have no store to build a story from")
	}
	press(o, "N")
	if o.typing || !strings.Contains(plain(o), "not in a run store") {
		t.Errorf("N on opened logs:\n%s", plain(o))
	}
}

// A stored run that printed no torch output counted nothing: its row says so, as the session log does, rather
// than "0 breaks · 0 recompiles".
func TestRunsViewRunWithoutTorchOutput(t *testing.T) {
	store := t.TempDir()
	exit0 := 0
	dir := writeStoredRun(t, store, runs.Meta{ID: 1, Preset: "breaks", TorchLogs: "graph_breaks,recompiles",
		UserArgv: []string{"sh", "-c", "echo hello"}, Start: fixedNow, State: runs.StateExited, ExitCode: &exit0}, "")
	if err := os.WriteFile(filepath.Join(dir, "stdout.log"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := storyModel(t, 160, 40, store)
	if cmd := press(m, "h"); cmd != nil {
		m.Update(cmd())
	}
	if row := lineWith(t, plain(m), "#1 "); !strings.Contains(row, "no torch output: nothing counted") || strings.Contains(row, "0 breaks") {
		t.Errorf("runs view row of a run without torch output: %q", row)
	}
}

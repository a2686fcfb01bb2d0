package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/story"
)

// copyRun copies a recorded run directory into a store as run id (its meta.json renumbered).
func copyRun(t *testing.T, store string, id int, src string) string {
	t.Helper()
	dst := filepath.Join(store, fmt.Sprintf("%04d-%s", id, strings.SplitN(filepath.Base(src), "-", 2)[1]))
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	var meta map[string]any
	data, err := os.ReadFile(filepath.Join(dst, "meta.json"))
	if err != nil || json.Unmarshal(data, &meta) != nil {
		t.Fatalf("%s: meta.json %v", src, err)
	}
	meta["id"], meta["name"], meta["dir"] = id, filepath.Base(dst), dst
	if data, err = json.Marshal(meta); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "meta.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// shortWords is what the runs list must say of a count the bringup log words as cw: the log's words, with the
// runs list's shorter noun.
func shortWords(cw story.CountWords) string {
	for _, n := range [][2]string{{"graph break", "break"}, {"CUDA-graph skip", "skip"}, {"compile error", "error"}} {
		if strings.Contains(cw.Words, n[0]) {
			return strings.Replace(cw.Words, n[0], n[1], 1)
		}
	}
	return cw.Words
}

// checkRowSaysWhatTheLogSays: the runs list's counts of a run say of each count what the bringup log says of the
// same run: exact, a floor ("≥0", "at least 1"), not logged / not in the log, or not counted at all.
func checkRowSaysWhatTheLogSays(t *testing.T, what, row string, sr *story.Run) {
	t.Helper()
	for _, cw := range sr.CountWords {
		switch cw.Count {
		case "graph_breaks", "recompiles", "recompile_limit_hits":
		case "cudagraph_skips", "compile_errors": // shown where there are some
			if cw.Count == "cudagraph_skips" && sr.Counts.CudagraphSkips == 0 || cw.Count == "compile_errors" && sr.Counts.CompileErrors == 0 {
				continue
			}
		default:
			continue
		}
		if cw.Value == "—" { // nothing counted: one phrase stands for every count, and no number does
			for _, bad := range []string{"0 break", "0 recompile", "0 limit hit"} {
				if strings.Contains(row, bad) {
					t.Errorf("%s (run %d): the log counts nothing (%q), the runs list says %q", what, sr.ID, cw.Words, row)
				}
			}
			continue
		}
		want := shortWords(cw)
		if kinds, absent := strings.CutSuffix(want, " "+cw.Value); absent && !strings.HasPrefix(cw.Value, "≥") {
			// no count, for a reason: the row names the kind among those missing for that reason
			// ("breaks, recompiles, limit hits not in the log", story.Grouped)
			named := false
			for _, item := range strings.Split(row, " · ") {
				if names, ok := strings.CutSuffix(item, " "+cw.Value); ok && slices.Contains(strings.Split(names, ", "), kinds) {
					named = true
				}
			}
			if !named {
				t.Errorf("%s (run %d): the log says %q, the runs list %q (want %q among the kinds %s)", what, sr.ID, cw.Words, row, kinds, cw.Value)
			}
			continue
		}
		if !strings.Contains(row, want) {
			t.Errorf("%s (run %d): the log says %q, the runs list %q (want %q in it)", what, sr.ID, cw.Words, row, want)
		}
	}
}

// The runs list and the bringup log word each run's counts by one set of rules: whether a count is exact, a floor
// (a run that did not complete, breaks that printed with graph_breaks off), not logged, not in the log (torch's
// logging silenced) or not counted (no torch output, nothing compiled). Real runs: testdata/recorded; run 9 is
// this session's and still going, stored as running.
func TestRunsListCountsAreTheBringupLogs(t *testing.T) {
	rec := filepath.Join("..", "testdata", "recorded")
	srcs := []string{
		filepath.Join(rec, "silenced-rank", "runs", "0001-breaks"),       // at least 1 break; recompiles, limit hits not in the log
		filepath.Join(rec, "silenced-logging", "runs", "0001-breaks"),    // every kind not in the log
		filepath.Join(rec, "log-counts", "runs", "0006-guards"),          // at least 1 break: graph_breaks off
		filepath.Join(rec, "log-counts", "runs", "0003-breaks"),          // nothing compiled
		filepath.Join(rec, "interrupt-reraise", "runs", "0001-breaks"),   // stopped by torchtriage: floors
		filepath.Join(rec, "invalid-logs", "runs", "0001-custom"),        // not logged, and floors
		filepath.Join(rec, "caught-compile", "runs", "0001-breaks"),      // a caught compile error
		filepath.Join(rec, "probe-unimplemented", "runs", "0022-breaks"), // exact, a limit hit
	}
	store := t.TempDir()
	for i, src := range srcs {
		copyRun(t, store, i+1, src)
	}
	live := runs.Meta{ID: 9, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: []string{"python", "repro.py"},
		Argv: []string{"python", "repro.py"}, Start: fixedNow.Add(-41e9), State: runs.StateRunning}
	writeStoredRun(t, store, live, "gb_recompile.triage.log")

	m := storeModel(t, 160, 60, store)
	feedRun(t, m, 9, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", -1)
	openRuns(t, m)
	rows := m.runRows()
	if len(rows) != len(srcs)+1 {
		t.Fatalf("%d rows, want %d", len(rows), len(srcs)+1)
	}
	for _, r := range rows {
		if r.st == nil {
			t.Fatalf("run %d: not in the story", r.id)
		}
		what := "stored run"
		if r.live() {
			what = "live run"
		}
		checkRowSaysWhatTheLogSays(t, what, rowCounts(r), r.st)
	}
	// the same runs opened (torchtriage open DIR): the row's counts come from the opened logs' analysis
	for _, r := range rows {
		if r.live() {
			continue
		}
		o := openPath(t, 160, 40, r.st.Dir)
		orows := o.runRows()
		if len(orows) != 1 {
			t.Fatalf("%s: %d rows", r.st.Dir, len(orows))
		}
		checkRowSaysWhatTheLogSays(t, "opened run", rowCounts(orows[0]), r.st)
	}
}

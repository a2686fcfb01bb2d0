package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// At 80 columns a run's row keeps every one of its counts whole: a long state ("stopped by torchtriage (timed
// out after 8s) · 0:08") or counts missing from the log left "≥0 brea…" and "breaks not in the log ·
// recompiles not in…", so what was missing could not be read. The kinds missing for one reason are one phrase
// (story.Grouped, as the bringup log's text). Real runs: testdata/recorded, stored and opened.
func TestRunsRowsKeepTheirCountsAt80Columns(t *testing.T) {
	rec := filepath.Join("..", "testdata", "recorded")
	srcs := []string{
		filepath.Join(rec, "silenced-logging", "runs", "0001-breaks"),    // every kind not in the log
		filepath.Join(rec, "silenced-rank", "runs", "0001-breaks"),       // at least 1 break; the others not in the log; 2 ranks
		filepath.Join(rec, "invalid-logs", "runs", "0001-custom"),        // not logged, and floors
		filepath.Join(rec, "interrupt-reraise", "runs", "0001-breaks"),   // stopped by torchtriage: floors
		filepath.Join(rec, "stopped-dist-hang", "runs", "0002-breaks"),   // stopped after 2m0s: floors, 2 ranks
		filepath.Join(rec, "log-counts", "runs", "0006-guards"),          // at least 1 break: graph_breaks off
		filepath.Join(rec, "log-counts", "runs", "0003-breaks"),          // stopped, nothing compiled
		filepath.Join(rec, "lagging-rank", "runs", "0001-breaks"),        // stopped after 1m0s, ≥1 break, 2 ranks
		filepath.Join(rec, "probe-unimplemented", "runs", "0022-breaks"), // exact, a limit hit
	}
	store := t.TempDir()
	for i, src := range srcs {
		copyRun(t, store, i+1, src)
	}
	m := storeModel(t, 80, 24, store)
	openRuns(t, m)
	rows := m.runRows()
	if len(rows) != len(srcs) {
		t.Fatalf("%d rows, want %d", len(rows), len(srcs))
	}
	check := func(what string, m *Model, r runRow) {
		t.Helper()
		counts := rowCounts(r)
		for _, sel := range []bool{false, true} {
			var lines []string
			for _, l := range m.runLines(r, sel, m.w-2) {
				lines = append(lines, ansi.Strip(l))
				if w := ansi.StringWidth(l); w > m.w-2 {
					t.Errorf("%s (run %d): a line of %d cells in a box of %d: %q", what, r.id, w, m.w-2, ansi.Strip(l))
				}
			}
			text := strings.Join(lines, "\n")
			for _, item := range strings.Split(counts, " · ") {
				if !strings.Contains(text, item) {
					t.Errorf("%s (run %d, selected %v): %q is not whole on screen:\n%s", what, r.id, sel, item, text)
				}
			}
		}
	}
	for _, r := range rows {
		check("stored run", m, r)
		o := openPath(t, 80, 24, r.st.Dir)
		check("opened run", o, o.runRows()[0])
	}
	if got := rowCounts(rows[len(rows)-1]); got != "breaks, recompiles, limit hits not in the log" {
		t.Errorf("silenced-logging's counts: %q, want the kinds missing from the log named once", got)
	}
}

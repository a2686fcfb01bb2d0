package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// squash is s without its spaces: text wrapped onto several lines, joined, holds the whole text so.
func squash(s string) string { return strings.Join(strings.Fields(ansi.Strip(s)), "") }

// rowTexts are the sentences a run's row in the runs list says, whole, beside the counts (which
// TestRunsRowsKeepTheirCountsAt80Columns keeps whole): the report's verdict, what it fixed or broke against its
// base run, what changed since the run before, why it has no findings.
func (m *Model) rowTexts(r runRow) []string {
	var out []string
	if a := rowAnalysis(r); a != nil && !r.live() && a.Verdict.Summary != "" {
		out = append(out, "verdict: "+clean(a.Verdict.Summary))
	}
	if st := r.st; st != nil {
		if st.Delta != nil {
			var b strings.Builder
			for _, p := range m.deltaPieces(st) {
				if b.Len() > 0 {
					b.WriteString(p.sep)
				}
				b.WriteString(p.text)
			}
			out = append(out, b.String())
		}
		if len(st.Changes) > 0 {
			out = append(out, changesText(st.Changes))
		}
		if st.Error != "" {
			out = append(out, "✗ "+clean(st.Error))
		}
	}
	return out
}

// The runs list wraps a row's verdict, what it fixed or broke and what changed onto lines indented under the row,
// as it does its counts: at 80 and 120 columns it cut them ("verdict: not steady: 3 graph breaks to fix or
// consider, 1 recompile beyon…", "changed: command torchrun --nproc-per-node 2 --tee 3 --master-port 36315 …"),
// so the verdict could not be read. The list stays navigable: every row, selected in turn, is on screen whole,
// and no line of the box is cut at its border. Real runs: testdata/recorded, stored (several of one script, so
// rows compare with their base run) and opened.
func TestRunsListWrapsVerdictsAndChanges(t *testing.T) {
	rec := filepath.Join("..", "testdata", "recorded")
	var srcs []string
	for _, s := range []string{
		"silenced-logging/runs/0001-breaks", "silenced-rank/runs/0001-breaks", "invalid-logs/runs/0001-custom",
		"invalid-logs/runs/0006-custom", "interrupt-reraise/runs/0001-breaks", "stopped-dist-hang/runs/0001-breaks",
		"stopped-dist-hang/runs/0002-breaks", "log-counts/runs/0006-guards", "log-counts/runs/0003-breaks",
		"lagging-rank/runs/0001-breaks", "probe-unimplemented/runs/0022-breaks", "probe-unimplemented/runs/0027-breaks",
		"probe-unimplemented/runs/0036-guards", "int-recompiles/runs/0001-breaks", "int-recompiles/runs/0002-breaks",
		"peer-abort/runs/0001-breaks", "dist-crash/runs/0001-breaks", "caught-compile/runs/0001-breaks",
	} {
		srcs = append(srcs, filepath.Join(rec, filepath.FromSlash(s)))
	}
	store := t.TempDir()
	for i, src := range srcs {
		copyRun(t, store, i+1, src)
	}
	for _, sz := range [][2]int{{80, 24}, {120, 32}} {
		w, h := sz[0], sz[1]
		m := storeModel(t, w, h, store)
		openRuns(t, m)
		rows := m.runRows()
		if len(rows) != len(srcs) {
			t.Fatalf("%d rows, want %d", len(rows), len(srcs))
		}
		wrapped := 0
		check := func(what string, m *Model, r runRow, sel bool) []string {
			t.Helper()
			var lines []string
			for _, l := range m.runLines(r, sel, m.w-2) {
				if lw := ansi.StringWidth(l); lw > m.w-2 {
					t.Errorf("%dx%d %s (run %d): a line of %d cells in a box of %d: %q", w, h, what, r.id, lw, m.w-2, ansi.Strip(l))
				}
				lines = append(lines, ansi.Strip(l))
			}
			all := squash(strings.Join(lines, " "))
			for _, s := range m.rowTexts(r) {
				if !strings.Contains(all, squash(s)) {
					t.Errorf("%dx%d %s (run %d, selected %v): %q is not whole on screen:\n%s", w, h, what, r.id, sel, ansi.Strip(s), strings.Join(lines, "\n"))
				}
				if ansi.StringWidth(s) > m.w-2-len(storyIndent) {
					wrapped++
				}
			}
			return lines
		}
		for i, r := range rows {
			check("stored run", m, r, false)
			row := check("stored run", m, r, true)
			// selected, the whole row is on screen (the list scrolls to it), no line cut at the box's border
			if i > 0 {
				press(m, "down")
			}
			if m.runsv.idx != i {
				t.Fatalf("%dx%d: down selected row %d, want %d", w, h, m.runsv.idx, i)
			}
			screen := plain(m)
			for _, l := range row {
				if !strings.Contains(screen, strings.TrimRight(l, " ")) {
					t.Errorf("%dx%d: run %d selected, its line %q is not on screen:\n%s", w, h, r.id, l, screen)
					break
				}
			}
			for _, l := range strings.Split(screen, "\n") {
				if strings.Contains(l, "…┃") {
					t.Errorf("%dx%d: run %d selected, a line cut at the border: %q", w, h, r.id, l)
				}
			}
			o := openPath(t, w, h, r.st.Dir)
			check("opened run", o, o.runRows()[0], true)
		}
		if wrapped == 0 {
			t.Errorf("%dx%d: no sentence wider than a line: the test shows nothing", w, h)
		}
		lineWith(t, plain(m), "selected one with the run before") // the list's legend, whole under the last row
	}
}

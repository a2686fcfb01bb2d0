package tui

import (
	"strings"
	"testing"
)

// A steady verdict on the TUI keeps the report's caveat about what was not logged (the H100 run of g01 under the
// breaks preset: the report adds that non-cudagraphable partitions and re-recordings were not logged, the TUI
// showed only "✓ steady state"), and a summary ending in "?" gets no "." after it (force-eager read "…?.").
func TestVerdictPaneKeepsTheCaveat(t *testing.T) {
	m := openModel(t, 120, 40, "../../testdata/gpu-e2e/e2e-20261126/0002-breaks")
	s := strings.Join(strings.Fields(plain(m)), " ")
	if !strings.Contains(s, "steady state") || !strings.Contains(s, "re-recordings were not logged") {
		t.Errorf("steady without its caveat:\n%s", plain(m))
	}
	m = openModel(t, 120, 40, "../../testdata/recorded/force-eager/runs/0001-breaks")
	if s := plain(m); strings.Contains(s, "?.") || !strings.Contains(s, "torch.compile?") {
		t.Errorf("'?.':\n%s", s)
	}
}

// A run that compiled nothing (force_eager, testdata/recorded/force-eager; torch.compile off, compile-off) counts
// nothing, as the report says ("nothing compiled (no frame compiled, by the probe)" in place of its counts line,
// counts_uncounted in its JSON): the pane titles said "Graph breaks · 0 · nothing compiled", a count of 0. Each says
// "not counted" and why, in the words of the bring-up log's counts ("graph breaks not counted (nothing compiled)"),
// and the ranks strip, the timeline and the runs list say the report's one phrase (Analysis.Uncounted).
func TestNothingCompiledIsNotCountedAsTheReport(t *testing.T) {
	for _, run := range []string{"force-eager", "compile-off"} {
		for _, w := range []int{80, 120} {
			m := openModel(t, w, 32, "../../testdata/recorded/"+run+"/runs/0001-breaks")
			none := m.cur.snap.analysis.Uncounted()
			if !strings.HasPrefix(none, "nothing compiled (") {
				t.Fatalf("%s: Uncounted %q", run, none)
			}
			s := plain(m)
			for _, title := range []string{"Graph breaks · not counted (nothing compiled)", "Recompiles · not counted (nothing compiled)"} {
				if !strings.Contains(s, title) {
					t.Errorf("%s at %d columns: no title %q:\n%s", run, w, title, s)
				}
			}
			if w == 120 && !strings.Contains(lineWith(t, s, "1 process"), " · "+none) {
				t.Errorf("%s: the ranks strip lacks %q:\n%s", run, none, s)
			}
			for _, key := range []string{"", "t", "h"} { // the lists, the timeline, the runs list
				if key != "" {
					press(m, key)
				}
				s := plain(m)
				if key != "" && !strings.Contains(s, none) {
					t.Errorf("%s at %d columns, %q: lacks %q:\n%s", run, w, key, none, s)
				}
				for _, zero := range []string{" · 0 ", " 0 breaks", " 0 recompiles", "0b "} {
					if strings.Contains(s, zero) {
						t.Errorf("%s at %d columns, %q: counts %q:\n%s", run, w, key, zero, s)
					}
				}
				if key != "" {
					press(m, "esc")
				}
			}
		}
	}
}

// Frames compiled but no graph (no_graph_compiled, testdata/recorded/ddp-compile run 7): its breaks were logged
// and counted, so its counts stand, as in the report.
func TestNoGraphCompiledKeepsItsCounts(t *testing.T) {
	m := openModel(t, 120, 32, "../../testdata/recorded/ddp-compile/runs/0007-breaks")
	s := plain(m)
	if strings.Contains(s, "not counted") || !strings.Contains(s, "Graph breaks · 2 distinct · 6 records") || !strings.Contains(s, "Recompiles · 0 ") {
		t.Errorf("titles:\n%s", s)
	}
}

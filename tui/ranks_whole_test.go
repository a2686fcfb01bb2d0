package tui

import (
	"strings"
	"testing"
)

// The Ranks view cuts no sentence: at 80 columns the matrix's legend read "(records per rank, · none, – not known;
// columns numbered be…" and the config parity of one probed process "no other to compare its versions, compile
// config and env…". Real runs, opened, every line of the view on screen (a tall terminal).
func TestRanksViewCutsNoSentence(t *testing.T) {
	for _, run := range [][2]string{
		{"silenced-rank", "0001-breaks"}, {"quiet-rank", "0013-breaks"}, {"caught-compile", "0001-breaks"},
		{"unprefixed-rank-break", "0001-breaks"}, {"dist-caught", "0001-breaks"}, {"lagging-rank", "0001-breaks"},
		{"dist-crash", "0001-breaks"}, {"peer-abort", "0001-breaks"}, {"stopped-dist-hang", "0002-breaks"},
	} {
		for _, w := range []int{80, 120} {
			m := openModel(t, w, 80, recordedRun(run[0], run[1]))
			press(m, "R")
			for _, l := range strings.Split(plain(m), "\n") {
				if strings.Contains(l, "…┃") || strings.Contains(l, "…│") {
					t.Errorf("%s, %d columns: a line cut: %q", run[0], w, l)
				}
			}
		}
	}
}

// A rank's breaks that reached a silenced log are "at least" because not all of them reached it, not because
// graph_breaks was off: the legend says so, as the report's "at least 1 distinct (1 record; graph_breaks not all in
// the log)". It read "≥ at least: some printed while not logged, others did not".
func TestRanksViewLegendOfASilencedLog(t *testing.T) {
	m := openModel(t, 120, 60, recordedRun("silenced-rank", "0001-breaks"))
	press(m, "R")
	s := plain(m)
	if strings.Contains(s, "while not logged") {
		t.Errorf("Ranks view:\n%s", s)
	}
	lineWith(t, s, "≥ at least: not all in the log (some reached it, others did not)")
}

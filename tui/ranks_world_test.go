package tui

import (
	"path/filepath"
	"strings"
	"testing"
)

// recordedRun is a recorded run dir as openModel takes it (it joins testdata/).
func recordedRun(name, run string) string {
	return filepath.Join("..", "..", "testdata", "recorded", name, "runs", run)
}

// rankRow is the cells of the Per rank table's row of rank (its name first), without the box.
func rankRow(t *testing.T, screen, rank string) []string {
	t.Helper()
	return strings.Fields(strings.Trim(lineWith(t, screen, "   "+rank+"  "), "┃│ "))
}

// A rank that printed no torch record is still a rank the analysis knows (the probes, torchrun): the Ranks view
// said "only rank 1 seen: nothing to compare" of quiet-rank while the main screen and the report said rank 1
// differs from rank 0. It shows both ranks, the report's agreement, and rank 0's counts as unknown, not 0.
func TestRanksViewShowsEveryRankTheAnalysisKnows(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := openModel(t, w, 32, recordedRun("quiet-rank", "0013-breaks"))
		main := plain(m)
		if row := lineWith(t, main, "print()"); !strings.Contains(row, "r1") {
			t.Errorf("%d cols: the print() row names no rank: %q", w, row)
		}
		press(m, "R")
		s := plain(m)
		if strings.Contains(s, "only rank 1 seen") {
			t.Errorf("%d cols: Ranks view:\n%s", w, s)
		}
		lineWith(t, s, "rank 1 differs from rank 0: extra graph break print() at dist.py:8")
		if r0 := rankRow(t, s, "r0"); strings.ContainsAny(strings.Join(r0[1:], " "), "0123456789") {
			t.Errorf("%d cols: rank 0 printed nothing, its counts are not known: %q", w, r0)
		}
		if r1 := rankRow(t, s, "r1"); len(r1) != 8 || r1[1] != "1" {
			t.Errorf("%d cols: rank 1 row %q", w, r1)
		}
		// the legend of rank 0's "–" is the report's "Per rank" line of it (per_rank_unknown), not words of its own
		if w == 120 {
			lineWith(t, s, "– rank 0: counts not known: no log record names it; its probe counted 1 compiled frame")
		}
	}
}

// A silenced rank: the report says the ranks were not compared, and the view says so, with both ranks; the limits
// column is the report's "not in the log", not 0.
func TestRanksViewOfASilencedRank(t *testing.T) {
	m := openModel(t, 120, 32, recordedRun("silenced-rank", "0001-breaks"))
	press(m, "R")
	s := plain(m)
	if strings.Contains(s, "only rank 0 seen") {
		t.Errorf("Ranks view:\n%s", s)
	}
	lineWith(t, s, "not compared: the log lacks what the probe counted (rank 1 counted 1 graph break its log")
	if r0 := rankRow(t, s, "r0"); len(r0) != 8 || r0[4] != "–" {
		t.Errorf("rank 0's limit hits are not in the log, not 0: %q", r0)
	}
	if r1 := rankRow(t, s, "r1"); strings.ContainsAny(strings.Join(r1[1:], " "), "0123456789") {
		t.Errorf("rank 1's log shows none of its counts: %q", r1)
	}
	// the matrix: rank 1's graph break is not known, its probe mismatch (a finding of rank 1) is
	lineWith(t, s, "   r1    –  1 ")
}

// A single process has no ranks to compare: no "Per rank" header over an empty table.
func TestRanksViewOfASingleProcess(t *testing.T) {
	m := openModel(t, 80, 24, filepath.Join("..", "..", "testdata", "gpu-e2e", "e2e-20261127", "g14-oom"))
	press(m, "R")
	s := plain(m)
	lineWith(t, s, " single process: no ranks to compare")
	if strings.Contains(s, "Per rank") {
		t.Errorf("Ranks view:\n%s", s)
	}
}

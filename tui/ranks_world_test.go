package tui

import (
	"path/filepath"
	"slices"
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
// differs from rank 0. It shows both ranks and the report's agreement. Of rank 0 no count is the log's: a 0 shows
// only where its probe counted none (0ᵖ: the quantities rank agreement compares it on), "–" where it is not known
// (its runtime errors: no probe counts them; its recompiles where its probe counted 3 frame compiles, which may be
// recompiles). Its row read "–" throughout while rank agreement above it said "no graph break" as its probe counted.
func TestRanksViewShowsEveryRankTheAnalysisKnows(t *testing.T) {
	const p = "0ᵖ"
	for _, c := range []struct {
		name, dir string
		r0        []string // breaks, records, recompiles, limits, skips, compile err, runtime err
		legend    string   // the report's "Per rank" line of rank 0, unwrapped
	}{
		{"0013-breaks", recordedRun("quiet-rank", "0013-breaks"), []string{p, p, p, p, p, p, "–"},
			"rank 0: 0 breaks, 0 recompiles, 0 limit hits, 0 skips, 0 compile errors, runtime errors not known; " +
				"no log record names it: the 0s are as its probe counted (1 compiled frame)"},
		{"3 frames", "", []string{p, p, "–", "–", p, p, "–"},
			"rank 0: 0 breaks, recompiles not known, limit hits not known, 0 skips, 0 compile errors, runtime errors not known; " +
				"no log record names it: the 0s are as its probe counted (it also counted 3 frame compiles, which may be recompiles)"},
	} {
		dir := c.dir
		if dir == "" {
			dir = syntheticThreeFrames(t)
		}
		for _, w := range []int{80, 120} {
			m := openModel(t, w, 60, dir)
			main := plain(m)
			if row := lineWith(t, main, "print()"); !strings.Contains(row, "r1") {
				t.Errorf("%s, %d cols: the print() row names no rank: %q", c.name, w, row)
			}
			press(m, "R")
			s := plain(m)
			if strings.Contains(s, "only rank 1 seen") {
				t.Errorf("%s, %d cols: Ranks view:\n%s", c.name, w, s)
			}
			if r0 := rankRow(t, s, "r0"); !slices.Equal(r0[1:], c.r0) {
				t.Errorf("%s, %d cols: rank 0 row %q, want %q (0 only as its probe counted)", c.name, w, r0[1:], c.r0)
			}
			if r1 := rankRow(t, s, "r1"); len(r1) != 8 || r1[1] != "1" {
				t.Errorf("%s, %d cols: rank 1 row %q", c.name, w, r1)
			}
			// the legend of rank 0's row is the report's "Per rank" line of it (per_rank_unknown), not words of its own
			flat := strings.Join(strings.Fields(strings.ReplaceAll(s, "┃", " ")), " ")
			if !strings.Contains(flat, "– "+c.legend) {
				t.Errorf("%s, %d cols: no legend %q:\n%s", c.name, w, c.legend, s)
			}
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
	// its log shows none of rank 1's counts; its probe counted no CUDA-graph skip and no failed frame (0ᵖ), and a
	// graph break and 2 frame compiles, which leave its breaks and recompiles not known
	if r1 := rankRow(t, s, "r1"); !slices.Equal(r1[1:], []string{"–", "–", "–", "–", "0ᵖ", "0ᵖ", "–"}) {
		t.Errorf("rank 1's log shows none of its counts, its probe some: %q", r1)
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

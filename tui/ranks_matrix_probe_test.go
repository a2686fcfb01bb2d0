package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// syntheticThreeFrames is a test-only copy of quiet-rank's run whose rank 0 probe counts 3 frame compiles
// (synthetic_, as cli's synthetic3Frames), as openModel takes it: rank agreement compares rank 0 on graph breaks,
// not on recompiles.
func syntheticThreeFrames(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "synthetic_quiet-rank-3-frames")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", recordedRun("quiet-rank", "0013-breaks")))); err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "probe", "rank0-*.json"))
	if len(matches) != 1 {
		t.Fatalf("rank 0's probe: %v", matches)
	}
	b, _ := os.ReadFile(matches[0])
	const one, three = `"frames": {"ok": 1, "total": 1}`, `"frames": {"ok": 3, "total": 3}`
	if !strings.Contains(string(b), one) {
		t.Fatalf("rank 0's probe %s: %.200s", matches[0], b)
	}
	if err := os.WriteFile(matches[0], []byte(strings.Replace(string(b), one, three, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	td, _ := filepath.Abs("testdata")
	rel, err := filepath.Rel(td, dir) // openModel joins testdata/
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// matrixCells is the Ranks × findings row of rank ("r0") by the kind word of its column ("graph break"), read off
// the numbered columns under the matrix.
func matrixCells(t *testing.T, screen, rank string) map[string]string {
	t.Helper()
	lines := strings.Split(screen, "\n")
	start := -1
	for i, l := range lines {
		if strings.Contains(l, "Ranks × findings") {
			start = i
		}
	}
	if start < 0 {
		t.Fatalf("no matrix:\n%s", screen)
	}
	var cells []string
	kinds := map[int]string{}
	for _, l := range lines[start:] {
		f := strings.Fields(strings.Trim(l, "┃│ "))
		switch {
		case len(f) > 0 && f[0] == rank && cells == nil:
			cells = f[1:]
		case len(f) > 2 && cells != nil:
			var n int
			if _, err := fmt.Sscan(f[0], &n); err == nil && n >= 1 {
				kinds[n] = f[1] + " " + f[2]
			}
		}
	}
	out := map[string]string{}
	for i, c := range cells {
		out[kinds[i+1]] = c
	}
	return out
}

// The Ranks × findings table says what the summary above it says, from the one agreement: a rank no log record
// names, compared on graph breaks as its probe counted, has none there (0ᵖ, with the legend saying whose probe),
// not "–"; "–" stays for what is not known, and the key names it only where a cell shows it.
func TestRanksMatrixShowsWhatTheProbeCounted(t *testing.T) {
	for _, c := range []struct{ name, dir, ranksCell string }{
		{"3 frames", "", "1"}, // rank 0 differs: it has the disagreement
		{"0013-breaks", recordedRun("quiet-rank", "0013-breaks"), "0ᵖ"}, // rank 0 is the reference
	} {
		dir := c.dir
		if dir == "" {
			dir = syntheticThreeFrames(t)
		}
		for _, w := range []int{80, 120} {
			m := openModel(t, w, 60, dir)
			press(m, "R")
			s := plain(m)
			r0 := matrixCells(t, s, "r0")
			if r0["graph break"] != "0ᵖ" || r0["rank disagreement"] != c.ranksCell {
				t.Errorf("%s, %d cols: rank 0's cells %v:\n%s", c.name, w, r0, s)
			}
			if r1 := matrixCells(t, s, "r1"); r1["graph break"] != "1" {
				t.Errorf("%s, %d cols: rank 1's cells %v", c.name, w, r1)
			}
			flat := strings.Join(strings.Fields(strings.ReplaceAll(s, "┃", " ")), " ")
			if !strings.Contains(flat, "0ᵖ none, as rank 0's probe counted (no log record names it)") {
				t.Errorf("%s, %d cols: no legend of 0ᵖ:\n%s", c.name, w, s)
			}
			if strings.Contains(flat, "– not known") { // no cell shows "–"
				t.Errorf("%s, %d cols: the key explains a mark no cell shows:\n%s", c.name, w, s)
			}
		}
	}
}

// Of a rank whose probe counted no graph break but did not count its recompiles, the matrix shows 0ᵖ under the
// break and "–" under the recompile (the Per rank table's source: per_rank_unknown's probe counts), the key names
// "–"; of two such ranks the legend names both.
func TestRanksMatrixKeepsNotKnownWhereTheProbeDidNotCount(t *testing.T) {
	m := newModel(options{mode: modeOpen, set: builtinSet(t)})
	silent := func(rk int) report.RankWithoutRecords {
		return report.RankWithoutRecords{Rank: rk, Probe: &report.ProbeCounts{None: []string{ranks.QuantityGraphBreaks},
			NotKnown: []string{ranks.QuantityRecompiles}}}
	}
	on := func(rk int) ranks.ProbeCompared {
		return ranks.ProbeCompared{RankWithoutRecords: silent(rk), ComparedOn: []string{ranks.QuantityGraphBreaks},
			NotCompared: []string{ranks.QuantityRecompiles}}
	}
	s := &snapshot{ranks: []int{0, 1, 2}, perRank: map[int]report.Counts{1: {}},
		report:  &report.Report{PerRankUnknown: []report.RankWithoutRecords{silent(0), silent(2)}},
		breaks:  []*row{{kind: findings.KindGraphBreak, what: "print()", ranks: []int{1}, perRank: map[int]int{1: 1}}},
		recomps: []*row{{kind: findings.KindRecompile, what: "f", ranks: []int{1}, perRank: map[int]int{1: 2}}},
		agree:   ranks.RankAgreement{FromProbe: []ranks.ProbeCompared{on(0), on(2)}}}
	text := ansi.Strip(strings.Join(m.rankMatrix(s, 118), "\n"))
	for _, want := range []string{"– not known", "   r0   0ᵖ  –", "   r1    1  2", "   r2   0ᵖ  –",
		"0ᵖ none, as the probes of ranks 0,2 counted (no log record names them)"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

// The matrix and the Per rank table above it read one source: where rank agreement compared nothing (the ranks
// with records did not earn it) a rank whose probe counted no graph break still shows 0ᵖ under the break, as its
// Per rank row does, and a rank whose probe counted one shows "–" (which break is not known).
func TestRanksMatrixAgreesWithPerRankWhereAgreementComparedNothing(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := openModel(t, w, 60, recordedRun("unprefixed-rank-break", "0001-breaks"))
		press(m, "R")
		s := plain(m)
		if r0 := matrixCells(t, s, "r0"); r0["graph break"] != "0ᵖ" {
			t.Errorf("%d cols: rank 0's graph break %q, want 0ᵖ as its Per rank row:\n%s", w, r0["graph break"], s)
		}
		if r1 := matrixCells(t, s, "r1"); r1["graph break"] != "–" {
			t.Errorf("%d cols: rank 1's graph break %q, want –:\n%s", w, r1["graph break"], s)
		}
	}
}

package tui

import (
	"strings"
	"testing"
)

// A TORCH_TRACE dir gives compile time per frame: the timeline draws it as bars, the slowest frame first.
func TestTimelineShowsCompileTimePerFrameFromTrace(t *testing.T) {
	m := openModel(t, 120, 40, "r05_dist_c10d.trace")
	press(m, "t")
	out := plain(m)
	i := strings.Index(out, "Compile time per frame (TORCH_TRACE")
	if i < 0 {
		t.Fatalf("no per-frame compile bars:\n%s", out)
	}
	rest := out[i:]
	step, resume := strings.Index(rest, "step ×4"), strings.Index(rest, "step (resume @10) ×2")
	if step < 0 || resume < 0 || step > resume || !strings.Contains(rest, "█") {
		t.Fatalf("bars not slowest first:\n%s", rest)
	}
}

// Two ranks, one warm and one cold (real 2.14 trace): the timeline draws one bar per rank by phase with the cache
// lookups marked, and names the first compile where the ranks diverge.
func TestTimelineShowsPerRankCompileBarsByPhaseAndWhereRanksDiverge(t *testing.T) {
	m := openModel(t, 120, 50, "../../testdata/compile/torch-2.14/c02_dist_mlp.mixed.trace")
	press(m, "t")
	out := plain(m)
	if !strings.Contains(out, "Compile time per rank, by phase (trace)") {
		t.Fatalf("no per-rank compile section:\n%s", out)
	}
	r0, r1 := lineWith(t, out, "rank 0      2.59s"), lineWith(t, out, "rank 1      8.32s")
	if !strings.Contains(r0, "fx 2✓  aot 1✓  pgo 1✓") || !strings.Contains(r1, "fx 4✗  aot 2✗  pgo 2w") {
		t.Errorf("cache marks: %q / %q", r0, r1)
	}
	if strings.Count(r1, "▒") == 0 || strings.Count(r0, "▒") != 0 || strings.Count(r1, "░") <= strings.Count(r0, "░") {
		t.Errorf("the cold rank's bar should show inductor and more triton time: %q / %q", r0, r1)
	}
	cells := func(l string) int { return len([]rune(l)) - len([]rune(strings.Map(dropBar, l))) }
	if c0, c1 := cells(r0), cells(r1); c0 == 0 || c1 < 3*c0 { // 2.59 s against 8.32 s
		t.Errorf("bars are not to scale: %d and %d cells", c0, c1)
	}
	if !strings.Contains(out, "ranks diverge at compile 0/0 `inner`: rank 0 warm 2.59s · rank 1 cold 5.48s") {
		t.Errorf("no divergence point:\n%s", out)
	}
}

func dropBar(r rune) rune {
	if strings.ContainsRune("█▓▒░▪", r) {
		return -1
	}
	return r
}

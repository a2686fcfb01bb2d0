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

package tui

import (
	"strings"
	"testing"
)

// The timeline (t) of a run whose probe kept steps shows the compiles after warm-up against the steps, warm-up
// shaded, in the words report says (testdata/recorded/after-warmup: the recompile at step 30 of a 5-step warm-up).
func TestTimelineShowsCompilesAgainstSteps(t *testing.T) {
	m := openModel(t, 120, 50, "../../testdata/recorded/after-warmup/runs/0001-breaks")
	press(m, "t")
	out := plain(m)
	if !strings.Contains(out, "Steps · after warm-up (5 steps, by SGD.step()): 1 recompile at step 30: size of x") {
		t.Fatalf("no steps lane:\n%s", out)
	}
	lane := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "▒") && strings.Contains(l, "●") {
			lane = l
		}
	}
	if lane == "" || strings.Index(lane, "▒") > strings.Index(lane, "●") {
		t.Errorf("want warm-up shaded before the compile mark:\n%s", out)
	}
}

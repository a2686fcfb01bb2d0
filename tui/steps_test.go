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

// A serving framework's lines (synthetic_vllm_serving.log) behind torch's own records (r01_branch_print, real
// 2.14.1): the compiles after warm-up are placed by line, with no step; the timeline says them in report's words
// and draws no step lane (before, a log-sourced event's step -1 indexed the lane out of range).
func TestTimelineServingLogHasNoStepLane(t *testing.T) {
	m := openModel(t, 120, 50, "../../testdata/fixtures/torch-2.14/r01_branch_print.triage.log",
		"../../testdata/fixtures/synthetic/synthetic_vllm_serving.log")
	press(m, "t")
	out := plain(m)
	if !strings.Contains(out, "Steps · after warm-up (by the log") || strings.Contains(out, "● compile after warm-up") {
		t.Fatalf("serving log's timeline:\n%s", out)
	}
}

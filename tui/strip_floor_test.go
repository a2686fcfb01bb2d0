package tui

import (
	"strings"
	"testing"
)

// The strip under the lists counts a run that did not complete as floors, as the runs list and the bringup log do
// (the H200 g14 run died of a CUDA OOM: "1 process · 0 breaks · 0 recompiles"; the peer-abort ranks "r0 0b 0rc").
func TestStripCountsOfAnUnfinishedRunAreFloors(t *testing.T) {
	m := openModel(t, 120, 32, "../../testdata/gpu-e2e/e2e-20261127/g14-oom")
	if s := plain(m); !strings.Contains(s, "≥0 breaks · ≥0 recompiles") {
		t.Errorf("single process:\n%s", s)
	}
	m = openModel(t, 120, 32, "../../testdata/recorded/peer-abort/runs/0001-breaks")
	if s := plain(m); strings.Contains(s, "r0 0b") || !strings.Contains(s, "r0 ≥0b") {
		t.Errorf("ranks:\n%s", s)
	}
}

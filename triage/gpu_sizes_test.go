package triage

import (
	"strings"
	"testing"
)

// torch warns about distinct input sizes once, when their count first passes its limit (8 in 2.11 and 2.14.1):
// the number it prints is a floor, not how many sizes were recorded (g03 recorded 56 and printed 9;
// gpu-cuda-graphs-2.11.md §4).
func TestDistinctSizesWarningIsAFloor(t *testing.T) {
	a := analyzeFiles(t, "torch-2.11-cuda/g03_cg_dynamic.perf.log")
	var title string
	for _, f := range a.Findings {
		if f.Kind == KindGPUWarning {
			title = f.Title
		}
	}
	if !strings.Contains(title, "at least 9 distinct input sizes") || strings.Contains(title, "each of 9") {
		t.Errorf("title %q", title)
	}
}

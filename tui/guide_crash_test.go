package tui

import (
	"strings"
	"testing"
)

// The g09a run (both ranks dead of an NCCL error, exit 1): the status line and the guide put the crash first and
// tick no step on what the dead run did not show (before: "3 of 6 done · step 1/6 Eager baseline vs compiled").
func TestGuidePutsTheCrashFirst(t *testing.T) {
	m := liveModel(t, 120, 32)
	feedRun(t, m, 1, "g09a_nccl_same_gpu.triage.log", "breaks", "graph_breaks,recompiles", 1)
	step, done := m.nextStep()
	if step.ID != "crash" || len(done) != 0 {
		t.Fatalf("next %q done %v; want the crash, nothing done", step.ID, done)
	}
	screen := plain(m)
	if !strings.Contains(screen, "0 of 6 done · fix the crash first") || strings.Contains(screen, "step 1/6") {
		t.Errorf("status line:\n%s", screen)
	}
	press(m, "n")
	screen = plain(m)
	if !strings.Contains(screen, "next: fix the crash first") || !strings.Contains(screen, "2 process(es) died of a runtime error") ||
		strings.Contains(screen, "✓ ") {
		t.Errorf("guide:\n%s", screen)
	}
}

package tui

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/playbooks"
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
	if !strings.Contains(screen, "next: fix the crash first") || !strings.Contains(screen, "2 processes died of a runtime error") ||
		strings.Contains(screen, "✓ ") {
		t.Errorf("guide:\n%s", screen)
	}
}

// At 80 columns each step's status is shown whole, on a line of its own where the step's title leaves no room
// (it was cut: "needs work: 1 CUDA-graph skip…").
func TestGuideStatusWholeAt80Columns(t *testing.T) {
	m := liveModel(t, 80, 40)
	feedRun(t, m, 1, "g03_cg_dynamic.perf.log", "cudagraphs", "perf_hints,cudagraphs,graph_breaks,recompiles", 0)
	press(m, "n")
	screen := plain(m)
	flat := strings.Join(strings.Fields(strings.NewReplacer("┃", " ", "│", " ").Replace(screen)), " ")
	checked := 0
	for _, p := range playbooks.Progress(m.checklist()) {
		status := string(p.Status)
		if p.Why != "" {
			status += ": " + p.Why
		}
		if len(status) < 30 {
			continue // short ones fit anyway
		}
		checked++
		if !strings.Contains(flat, strings.Join(strings.Fields(status), " ")) {
			t.Errorf("step %d status %q not whole on the guide:\n%s", p.Step.N, status, screen)
		}
	}
	if checked == 0 {
		t.Fatalf("no long status to check:\n%s", screen)
	}
}

package triage_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// CUDA graphs' fast path missed on every call (pending, uninvoked backwards: g15b on the H200, 2026-11-27) is work
// for the CUDA-graph step, not a steady state: the run read "steady state: no unexpected graph break or recompile"
// beside a MEDIUM fix finding, and its checklist went on to the eager baseline. The overwritten-output error (g15,
// .grad accumulating across replays) is a runtime error with its playbook.
func TestCUDAGraphWarningToFixIsNotSteady(t *testing.T) {
	const dir = "../testdata/gpu-e2e/e2e-20261127/"
	out := triagetest.ReportJSON(t, dir+"g15b-pending")
	var doc struct {
		Verdict struct {
			State   string   `json:"state"`
			Reasons []string `json:"reasons"`
		} `json:"verdict"`
		NextStep struct {
			ID string `json:"id"`
		} `json:"next_step"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Verdict.State == "steady" || !strings.Contains(strings.Join(doc.Verdict.Reasons, "\n"), "cg-pending-backward") {
		t.Errorf("verdict %+v", doc.Verdict)
	}
	if doc.NextStep.ID != "cudagraphs" {
		t.Errorf("next step %q", doc.NextStep.ID)
	}
	out = triagetest.ReportText(t, 80, dir+"g15-grad")
	if !strings.Contains(out, "cg-outputs-overwritten") || !strings.Contains(out, "runtime errors ≥1") { // the process died of it: a floor, as the bring-up log words it
		t.Errorf("g15:\n%s", out)
	}
}

// --no-cudagraph-skips fails on a CUDA-graph warning whose playbook says fix (g15b's pending backwards: the fast
// path missed on every call, so those calls ran without CUDA graphs); the H200 gate passed it beside a report
// whose verdict was not steady.
func TestNoCudagraphSkipsFailsOnPendingBackwards(t *testing.T) {
	code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCudagraphSkips: true}}, "../testdata/gpu-e2e/e2e-20261127/g15b-pending")
	if code != gate.ExitFailed || !strings.Contains(out, "cg-pending-backward") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

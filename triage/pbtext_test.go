package triage_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/text"
)

// g01 (torch 2.11, H100): a CPU input makes a non-cudagraphable partition, not a skip (docs
// gpu-cuda-graphs-2.11.md §1). Step 4 must not read as finished while the partition remains: it needs work, and
// its done-when names partitions, not only skip messages.
func TestCudagraphStepCoversPartitions(t *testing.T) {
	a := analyzeRun(t, Fx("torch-2.11-cuda/g01_cg_cpu_input.perf.log"), nil)
	if c := a.Report.Counts; c.CudagraphSkips != 0 {
		t.Fatalf("g01 has no skip, counts %+v", c)
	}
	var st *playbooks.StepStatus
	for _, p := range playbooks.Progress(a.State()) {
		if p.ID == "cudagraphs" {
			st = &p
		}
	}
	if st == nil || st.Status != playbooks.StatusNeedsWork {
		t.Fatalf("cudagraphs step %+v, want needs work", st)
	}
	if a.NextStep.ID != "cudagraphs" {
		t.Fatalf("next step %q", a.NextStep.ID)
	}
	dw := a.NextStep.DoneWhen
	for _, want := range []string{"non-cudagraphable partition", "skip", "re-recording"} {
		if !strings.Contains(dw, want) {
			t.Errorf("done when %q does not cover %q", dw, want)
		}
	}
	var txt strings.Builder
	render.WriteReport(&txt, a, "text", text.Options{Width: 200})
	if strings.Contains(txt.String(), "done when: No 'skipping cudagraphs' messages.") {
		t.Errorf("report still says step 4 is done with only skips gone:\n%s", txt.String())
	}
}

// g13b: only one "Running warmup" line precedes cuda_graph_id=0; ids 1–3 are recorded without one, and nothing
// in the docs says how memory pools are shared: the re-record detail claims neither.
func TestRerecordDetailClaimsOnlyWhatTheLogShows(t *testing.T) {
	a := analyzeRun(t, Fx("torch-2.11-cuda/g13b_cg_rerecord_limit_noinline.perf.log"), nil)
	var rr *findings.Finding
	for i := range a.Findings {
		if a.Findings[i].Kind == findings.KindCudagraphRerecord {
			rr = &a.Findings[i]
		}
	}
	if rr == nil {
		t.Fatal("no re-record finding")
	}
	for _, bad := range []string{"warm-up run", "memory pool"} {
		if strings.Contains(rr.Detail, bad) {
			t.Errorf("detail claims %q:\n%s", bad, rr.Detail)
		}
	}
	if !strings.Contains(rr.Detail, "cuda_graph_id") {
		t.Errorf("detail does not say what a re-recording is in the log:\n%s", rr.Detail)
	}
}

// g13b's skip follows from its 3 re-recordings (limit 3): the verdict lists them, not only the skip.
func TestVerdictListsRerecordings(t *testing.T) {
	a := analyzeRun(t, Fx("torch-2.11-cuda/g13b_cg_rerecord_limit_noinline.perf.log"), nil)
	found := false
	for _, r := range a.Verdict.Reasons {
		if strings.HasPrefix(r, "3 CUDA-graph re-recordings") && strings.Contains(r, "[cg-rerecord-static-input]") {
			found = true
		}
	}
	if !found || a.Verdict.State != triage.StateNotSteady {
		t.Errorf("verdict %+v", a.Verdict)
	}
}

// The checklist's wording of the re-recording allowance is triage's rule.
func TestCudagraphDoneWhenMatchesRerecordRule(t *testing.T) {
	s := playbooks.Checklist()[3]
	if want := fmt.Sprintf("at most %d re-recordings", triage.RerecordsFew); !strings.Contains(s.DoneWhen, want) {
		t.Errorf("done when %q lacks %q", s.DoneWhen, want)
	}
	if want := fmt.Sprintf("re-recordings (more than %d)", triage.RerecordsFew); !strings.Contains(
		playbooks.Progress(playbooks.State{CudagraphRerecords: triage.RerecordsFew + 1})[3].Why, want) {
		t.Errorf("why lacks %q", want)
	}
}

package triage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/text"
)

// A re-recording is a recording of a function after its earlier recordings failed their check: a
// "Recording function=F, cuda_graph_id=N" line after "Re-recording function=F, reason=R" lines. Torch logs one
// Re-recording line per existing recording it checks on each call (docs: gpu-cuda-graphs-2.11.md §3), so g13b's
// 10 Re-recording lines are 1+2+3+4 checks: 4 recordings (cuda_graph_id 0–3), 3 of them re-recordings, and
// the fifth call was refused (the re-record-limit skip).
func TestRerecordCount(t *testing.T) {
	a := analyzeRun(t, Fx("torch-2.11-cuda/g13b_cg_rerecord_limit_noinline.perf.log"), nil)
	c := a.Report.Counts
	if c.CudagraphRerecords != 3 || c.CudagraphRerecordChecks != 10 || c.CudagraphRerecordsUnknown {
		t.Fatalf("counts %+v", c)
	}
	var rr *findings.Finding
	for i := range a.Findings {
		if a.Findings[i].Kind == findings.KindCudagraphRerecord {
			rr = &a.Findings[i]
		}
	}
	if rr == nil || rr.Records != 3 || !strings.HasPrefix(rr.Title, "CUDA graph of partition_0 recorded again 3 times") ||
		!strings.Contains(rr.Detail, "10 failed checks") {
		t.Fatalf("finding %+v", rr)
	}
	var txt, md strings.Builder
	render.WriteReport(&txt, a, "text", text.Options{Width: 200})
	render.WriteMarkdown(&md, a)
	for _, want := range []string{"cudagraph re-recordings 3", "CUDA graph re-recorded ×3 single process: partition_0",
		"cudagraph_rerecord · — · ×3", "(10 failed checks of earlier recordings)"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, txt.String())
		}
	}
	if strings.Contains(txt.String(), "10 re-record") || strings.Contains(txt.String(), "again 10") {
		t.Errorf("text report still says 10 re-recordings:\n%s", txt.String())
	}
	if !strings.Contains(md.String(), "recorded again 3 times") {
		t.Errorf("markdown:\n%s", md.String())
	}
	j, _ := json.Marshal(render.JSONOf(a))
	// the counts contract's cudagraph_rerecords is the fixtures' ground truth: every "Re-recording" record
	for _, want := range []string{`"cudagraph_rerecordings":3,`, `"cudagraph_rerecords":10`, `"rerecords":3,`} {
		if !strings.Contains(string(j), want) {
			t.Errorf("json lacks %s: %s", want, j)
		}
	}
	// the gate compares re-recordings
	for limit, fail := range map[int]bool{2: true, 3: false} {
		res := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, MaxCudagraphRerecords: &limit})
		if res.Passed == fail || (fail && !strings.HasPrefix(res.Failures[0].Message, "3 re-recordings > 2: CUDA graph of partition_0 recorded again 3 times")) {
			t.Errorf("limit %d: %+v", limit, res)
		}
	}

	// recordings without failed checks are new tree nodes (a forward, its backward, a new path), not re-recordings
	a = analyzeRun(t, Fx("torch-2.11-cuda/g15b_cg_pending_backward_zero_grad.perf.log"), nil)
	if c := a.Report.Counts; c.CudagraphRerecords != 0 || c.CudagraphRerecordChecks != 0 {
		t.Errorf("g15b counts %+v", c)
	}
}

// Re-recording lines without the Recording lines (a paste, a grep; both are V-level lines of the same
// artifact, so a whole log has both) show failed checks, not how many recordings followed: no number.
func TestRerecordsWithoutRecordingLines(t *testing.T) {
	data, err := os.ReadFile(Fx("torch-2.11-cuda/g13b_cg_rerecord_limit_noinline.perf.log"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if !strings.Contains(l, "] Recording function=") {
			kept = append(kept, l)
		}
	}
	path := filepath.Join(t.TempDir(), "synthetic_rerecord_without_recording.log")
	os.WriteFile(path, []byte(strings.Join(kept, "")), 0o644)
	a := analyzeRun(t, path, nil)
	c := a.Report.Counts
	if c.CudagraphRerecords != 0 || c.CudagraphRerecordChecks != 10 || !c.CudagraphRerecordsUnknown {
		t.Fatalf("counts %+v", c)
	}
	var txt strings.Builder
	render.WriteReport(&txt, a, "text", text.Options{Width: 200})
	if !strings.Contains(txt.String(), "cudagraph re-recordings not known (10 failed re-record checks, no Recording lines)") ||
		!strings.Contains(txt.String(), "how many times it was recorded again is not known") {
		t.Errorf("text report:\n%s", txt.String())
	}
	limit := 3
	res := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, MaxCudagraphRerecords: &limit})
	if why := gate.MissingEvidence(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, MaxCudagraphRerecords: &limit}); !res.Passed ||
		!strings.Contains(why, "re-recordings not known") {
		t.Errorf("gate %+v, missing evidence %q", res, why)
	}
}

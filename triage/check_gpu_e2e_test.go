package triage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// Real run dirs from an H100 (testdata/gpu-e2e): a warm FX graph cache hides the partition its cold run printed,
// so the CUDA-graph gate has no evidence; the cold run fails it; the probe gives the torch version.
func TestCheckGPURunDirs(t *testing.T) {
	dir := "../testdata/gpu-e2e/"
	code, out, errs := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCudagraphSkips: true}}, dir+"0001-cudagraphs")
	if code != 1 || !strings.Contains(out, "non-cudagraphable partition: CUDA graphs leave out DeviceCopy ops") {
		t.Errorf("cold run: %d\n%s%s", code, out, errs)
	}
	code, out, errs = check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCudagraphSkips: true}}, dir+"0008-custom")
	if code != gate.ExitNoEvidence || !strings.Contains(errs, "1 graph came from the FX graph cache, which prints no partitions") {
		t.Errorf("warm run: %d\n%s%s", code, out, errs)
	}
	// the warm run's re-recordings are known, its partitions are not: the counted line claims no partition count
	code, out, errs = check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, MaxCudagraphRerecords: rerecords(3)}}, dir+"0008-custom")
	if code != 0 || !strings.Contains(out, "0 CUDA-graph re-recordings") || !strings.Contains(out, "non-cudagraphable partitions not known") ||
		strings.Contains(out, "0 non-cudagraphable") {
		t.Errorf("warm run, re-recordings: %d\n%s%s", code, out, errs)
	}
	out = triagetest.ReportText(t, 80, dir+"0008-custom")
	if !strings.Contains(out, "torch 2.11.0+cu130") || !strings.Contains(out, "partitions are not known") {
		t.Errorf("warm run report:\n%s", out)
	}
	out = triagetest.ReportText(t, 80, dir+"0005-breaks")
	if !strings.Contains(out, "First failure: rank 1 failed first (torchrun's root cause)") {
		t.Errorf("NCCL report:\n%s", out)
	}
}

// The cudagraphs preset turns compile caches off itself: that is the tool's doing, never a finding against the
// user's program (before, a HIGH "unset the variable" finding topped the list). The partition and the
// re-recordings the cold runs print are there.
func TestToolSetKnobIsNoFinding(t *testing.T) {
	dir := "../testdata/gpu-e2e/tui/"
	// the next step may name the preset's setting; no finding does
	findings := func(out string) string {
		if i := strings.Index(out, "Findings ("); i >= 0 {
			out = out[i:]
		}
		if i := strings.Index(out, "Next step"); i >= 0 {
			out = out[:i]
		}
		return out
	}
	out := triagetest.ReportText(t, 200, dir+"0001-custom")
	if strings.Contains(findings(out), "FORCE_DISABLE_CACHES") || strings.Contains(out, "cache-disabled") ||
		!strings.Contains(out, "CUDA graphs leave out DeviceCopy ops at g01_cg_cpu_input.py:7") {
		t.Errorf("g01 under the cudagraphs preset:\n%s", out)
	}
	out = triagetest.ReportText(t, 200, dir+"0003-custom")
	if strings.Contains(findings(out), "FORCE_DISABLE_CACHES") || !strings.Contains(out, "recorded again 3 times") ||
		!strings.Contains(out, "cudagraph re-recordings 3") {
		t.Errorf("g13b under the cudagraphs preset:\n%s", out)
	}
}

// A real max-autotune compile on an H100 (testdata/compile/runs-gpu, bench/gpu-autotune.sh): the report's
// autotune phase is the trace's compile_time_autotune_time_us, and run-time autotuning is kept out of the total.
func TestGPUAutotunePhase(t *testing.T) {
	dir := "../testdata/compile/runs-gpu/0001-trace"
	traces, _ := filepath.Glob(dir + "/trace/*.log")
	if len(traces) != 1 {
		t.Fatalf("traces %v", traces)
	}
	data, err := os.ReadFile(traces[0])
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for _, m := range regexp.MustCompile(`"compile_time_autotune_time_us": (\d+)`).FindAllSubmatch(data, -1) {
		us, _ := strconv.ParseFloat(string(m[1]), 64)
		want += us / 1e6
	}
	out := triagetest.ReportJSON(t, dir)
	var rep struct {
		TorchVersion string `json:"torch_version"`
		Compile      struct {
			TotalS  float64            `json:"total_s"`
			ByPhase map[string]float64 `json:"by_phase"`
			Runtime map[string]float64 `json:"runtime"`
		} `json:"compile"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := rep.Compile.ByPhase["autotune_s"]
	if want < 1 || got < want*0.99 || got > want*1.01 || rep.Compile.Runtime["autotune_s"] <= 0 ||
		rep.TorchVersion != "2.11.0+cu130" || rep.Compile.TotalS < got {
		t.Errorf("autotune %.3fs (trace %.3fs), runtime %v, total %.3f, torch %q", got, want, rep.Compile.Runtime,
			rep.Compile.TotalS, rep.TorchVersion)
	}
}

// The real g09a run (both ranks dead of an NCCL error at their first collective): the next step is the crash, and
// no step counts as done on what a dead run did not show (before: "Next step (1 of 6): Eager baseline", and
// breaks, recompiles and ranks done). Text, Markdown and JSON say the same; the log alone says it too.
func TestCrashedRunNextStepIsTheCrash(t *testing.T) {
	for _, in := range []string{"../testdata/gpu-e2e/0005-breaks", Fx("torch-2.11-cuda/g09a_nccl_same_gpu.triage.log")} {
		out := triagetest.ReportText(t, 200, in)
		if !strings.Contains(out, "Next step: fix the crash first: 2 processes died of a runtime error: DistBackendError") ||
			strings.Contains(out, "of 6):") {
			t.Errorf("%s: text\n%s", in, out)
		}
		out = triagetest.Render(t, triagetest.ReportPaths(t, in), "markdown", 80)
		if !strings.Contains(out, "**Next step: fix the crash first:** 2 processes died of a runtime error") {
			t.Errorf("%s: markdown\n%s", in, out)
		}
		out = triagetest.ReportJSON(t, in)
		var rep struct {
			NextStep struct {
				ID   string   `json:"id"`
				Why  string   `json:"why"`
				Done []string `json:"done"`
			} `json:"next_step"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.NextStep.ID != "crash" || len(rep.NextStep.Done) != 0 ||
			!strings.HasPrefix(rep.NextStep.Why, "2 processes died of a runtime error: DistBackendError") {
			t.Errorf("%s: json %v %+v", in, err, rep.NextStep)
		}
	}
}

// The H100 end-to-end run of 2026-11-23 (testdata/gpu-e2e/e2e-20261123): g13b records partition_0 four times
// (3 re-recordings; its 10 "Re-recording" lines are failed checks) and then gives up; g02's skip names its site;
// g01 under the breaks preset (torch 2.11 from the probe) truly printed no skip — 2.11 prints skips under any
// TORCH_LOGS — but its non-cudagraphable partition could not print, and the report says so.
func TestGPUEndToEnd20261123(t *testing.T) {
	dir := "../testdata/gpu-e2e/e2e-20261123/"
	out := triagetest.ReportText(t, 200, dir+"0003-cudagraphs")
	if !strings.Contains(out, "CUDA graph of partition_0 recorded again 3 times") ||
		!strings.Contains(out, "cudagraph re-recordings 3") || strings.Contains(out, "again 10") {
		t.Errorf("g13b report:\n%s", out)
	}
	code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, MaxCudagraphRerecords: rerecords(3)}}, dir+"0003-cudagraphs")
	if code != 0 || !strings.Contains(out, "PASS · --max-cudagraph-rerecords=3") {
		t.Errorf("g13b check 3: %d\n%s", code, out)
	}
	code, out, _ = check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, MaxCudagraphRerecords: rerecords(2)}}, dir+"0003-cudagraphs")
	if code != 1 || !strings.Contains(out, "FAIL [--max-cudagraph-rerecords=2] 3 re-recordings > 2: CUDA graph of partition_0 recorded again 3 times") {
		t.Errorf("g13b check 2: %d\n%s", code, out)
	}
	code, out, _ = check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCudagraphSkips: true}}, dir+"0004-cudagraphs")
	if code != 1 || !strings.Contains(out, "mutated inputs (1 instances) · at /work/main/testdata/fixtures/repro-gpu/g02_cg_mutated_input.py:6") {
		t.Errorf("g02 check: %d\n%s", code, out)
	}
	out = triagetest.ReportText(t, 200, dir+"0002-breaks")
	if !strings.Contains(out, "cudagraph skips 0") ||
		!strings.Contains(out, "Non-cudagraphable partitions and CUDA-graph re-recordings were not logged") {
		t.Errorf("g01 breaks report:\n%s", out)
	}
}

// The H100 end-to-end run of 2026-11-26 (testdata/gpu-e2e/e2e-20261126): g09b under torchrun, where only rank 0
// prints and so breaks and recompiles its resume function, fails --ranks-agree with what differs and counts
// automatic dynamic's three first size recompiles as expected; g01 under the breaks preset prints nothing at all:
// its run dir passes on what the run's TORCH_LOGS and the probe show, its bare output shows nothing and passes
// nothing.
func TestCheckGPURunDirs20261126(t *testing.T) {
	dir := "../testdata/gpu-e2e/e2e-20261126/"
	code, out, errs := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1, RanksAgree: true}}, dir+"0007-breaks")
	if code != 1 || !strings.Contains(out, "FAIL [--ranks-agree] rank 0 differs from rank 1: extra graph break print() at g09b_gloo_rank_break.py:12") ||
		!strings.Contains(out, "counted: 1 graph break, 0 recompiles beyond automatic dynamic (and 3 expected, not counted, by assumption") {
		t.Errorf("g09b: %d\n%s%s", code, out, errs)
	}
	code, out, errs = check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: 0}}, dir+"0002-breaks")
	if code != 0 || !strings.Contains(out, "PASS · --max-graph-breaks=0 --max-recompiles=0 · counted: 0 graph breaks, 0 recompiles") {
		t.Errorf("g01 run dir: %d\n%s%s", code, out, errs)
	}
	out = triagetest.ReportText(t, 80, dir+"0002-breaks")
	if !strings.Contains(out, "Based on: torch seen in probe; TORCH_LOGS from the run: graph_breaks,recompiles") {
		t.Errorf("g01 report:\n%s", out)
	}
	// g09b again under the guards preset (no graph_breaks): the recompile rank 0 alone makes is a logged
	// difference and fails --ranks-agree; the breaks, not logged, are counted nowhere
	code, out, errs = check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir+"guards/0001-guards")
	if code != 1 || !strings.Contains(out, "FAIL [--ranks-agree] rank 0 differs from rank 1: extra recompile of step (after line 12)") ||
		!strings.Contains(out, "counted: graph breaks not logged, 0 recompiles beyond automatic dynamic (and 3 expected, not counted, by assumption") {
		t.Errorf("g09b guards: %d\n%s%s", code, out, errs)
	}
	code, out, errs = check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}}, dir+"0002-breaks/stderr.log")
	if code != gate.ExitNoEvidence || !strings.Contains(errs, "the input holds no torch output at all") {
		t.Errorf("g01 stderr alone: %d\n%s%s", code, out, errs)
	}
}

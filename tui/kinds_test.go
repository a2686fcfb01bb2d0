package tui

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
)

// A runtime error is not called a graph break: the left list is "Breaks & errors", its row is tagged CRASH and
// its detail names the kind.
func TestRuntimeErrorIsNotCalledAGraphBreak(t *testing.T) {
	m := openModel(t, 120, 32, "g09a_nccl_same_gpu.triage.log")
	out := plain(m)
	if strings.Contains(out, "Graph breaks") || !strings.Contains(out, "Breaks & errors · ≥2 runtime errors") {
		t.Fatalf("left title should count the runtime error, not call it a graph break:\n%s", out)
	}
	if !strings.Contains(lineWith(t, out, "▶"), "CRASH") {
		t.Errorf("the runtime error's row is not tagged CRASH:\n%s", out)
	}
	press(m, "enter")
	if !strings.Contains(plain(m), "runtime error: ") {
		t.Errorf("the detail does not name the kind:\n%s", plain(m))
	}
}

// GPU findings read as what they are in the title, the row tags and the detail.
func TestGPUFindingsReadWellInTheListsAndDetail(t *testing.T) {
	m := openModel(t, 160, 32, "g03_cg_dynamic.perf.log")
	out := plain(m)
	if !strings.Contains(out, "Breaks & more · 1 CUDA-graph partition · 1 GPU warning") {
		t.Fatalf("left title does not count the GPU findings:\n%s", out)
	}
	for _, tag := range []string{" CG", " GPU"} {
		if !strings.Contains(out, tag+" ") && !strings.Contains(out, tag+"┃") {
			t.Errorf("no %q tag:\n%s", tag, out)
		}
	}
	for want, k := range map[string]string{"cudagraph_partition": "CUDA-graph partition", "gpu_warning": "GPU warning",
		"cache_miss": "cache miss", "compile_time": "compile time", "runtime_error": "runtime error",
		"cudagraph_rerecord": "CUDA-graph re-record"} {
		if got := kindWord(kindOf(want)); got != k {
			t.Errorf("kindWord(%s) = %q, want %q", want, got, k)
		}
	}
	if got := kindCount(kindOf("cache_miss"), 3); got != "3 cache misses" {
		t.Errorf("kindCount = %q", got)
	}
}

// The left list's title counts what the report counts (one runtime error per process that died, each recording
// after the first that followed failed checks: g13b's 3), not the list's rows: g09a's one row stands for two dying ranks ("×2 r0 r1", "runtime errors ≥2":
// a run whose processes died counted what they reached, a floor, as the report's counts line).
func TestLeftTitleCountsAsTheReport(t *testing.T) {
	for file, want := range map[string]string{
		"g09a_nccl_same_gpu.triage.log": "Breaks & errors · ≥2 runtime errors",
		"../../testdata/fixtures/torch-2.11-cuda/g13b_cg_rerecord_limit_noinline.perf.log": "3 CUDA-graph re-records",
	} {
		m := openModel(t, 200, 32, file)
		c := m.cur.snap.report.Counts
		if got := lineWith(t, plain(m), "Breaks &"); !strings.Contains(got, want) {
			t.Errorf("%s: title %q, want %q (report: %d runtime errors, %d re-records)", file, got, want,
				c.RuntimeErrors, c.CudagraphRerecords)
		}
	}
}

func kindOf(s string) findings.Kind { return findings.Kind(s) }

package cli

import (
	"strings"
	"testing"
)

// Real run dirs from an H100 (testdata/gpu-e2e): a warm FX graph cache hides the partition its cold run printed,
// so the CUDA-graph gate has no evidence; the cold run fails it; the probe gives the torch version.
func TestCheckGPURunDirs(t *testing.T) {
	dir := "../testdata/gpu-e2e/"
	code, out, errs := runCheck(t, dir+"0001-cudagraphs", "--no-cudagraph-skips")
	if code != 1 || !strings.Contains(out, "non-cudagraphable partition(s): CUDA graphs leave out DeviceCopy ops") {
		t.Errorf("cold run: %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCheck(t, dir+"0008-custom", "--no-cudagraph-skips")
	if code != exitNoEvidence || !strings.Contains(errs, "1 graph(s) came from the FX graph cache, which prints no partitions") {
		t.Errorf("warm run: %d\n%s%s", code, out, errs)
	}
	code, out, _ = run(t, "report", dir+"0008-custom")
	if code != 0 || !strings.Contains(out, "torch 2.11.0+cu130") || !strings.Contains(out, "partitions are not known") {
		t.Errorf("warm run report: %d\n%s", code, out)
	}
	code, out, _ = run(t, "report", dir+"0005-breaks")
	if code != 0 || !strings.Contains(out, "First failure: rank 1 failed first (torchrun's root cause)") {
		t.Errorf("NCCL report: %d\n%s", code, out)
	}
}

// The cudagraphs preset turns compile caches off itself: that is the tool's doing, never a finding against the
// user's program (before, a HIGH "unset the variable" finding topped the list). The partition and the
// re-recordings the cold runs print are there.
func TestToolSetKnobIsNoFinding(t *testing.T) {
	dir := "../testdata/gpu-e2e/tui/"
	code, out, _ := run(t, "report", "--width", "200", dir+"0001-custom")
	if code != 0 || strings.Contains(out, "FORCE_DISABLE_CACHES") || strings.Contains(out, "cache-disabled") ||
		!strings.Contains(out, "CUDA graphs leave out DeviceCopy ops at g01_cg_cpu_input.py:7") {
		t.Errorf("g01 under the cudagraphs preset: %d\n%s", code, out)
	}
	code, out, _ = run(t, "report", "--width", "200", dir+"0003-custom")
	if code != 0 || strings.Contains(out, "FORCE_DISABLE_CACHES") || !strings.Contains(out, "recorded again 10 time(s)") {
		t.Errorf("g13b under the cudagraphs preset: %d\n%s", code, out)
	}
}

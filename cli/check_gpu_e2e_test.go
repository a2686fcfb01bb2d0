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

package story

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
)

// Real H100 runs (testdata/gpu-e2e): the cold run's partition is listed; the warm rerun loaded its graph from the
// FX graph cache, printed no partition, and the log says partitions are not known there instead of calling the
// partition fixed.
func TestStoryGPUPartitionsOnAWarmCache(t *testing.T) {
	store := t.TempDir()
	for _, r := range []string{"0001-cudagraphs", "0008-custom"} {
		if out, err := exec.Command("cp", "-r", filepath.Join("..", "..", "testdata", "gpu-e2e", r), store).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	s, err := Build(store)
	if err != nil || len(s.Runs) != 2 {
		t.Fatalf("%v %+v", err, s)
	}
	cold, warm := s.Runs[0], s.Runs[1]
	if cold.Counts.CudagraphPartitions != 1 || !cold.Logged.CudagraphPartitions || warm.Logged.CudagraphPartitions {
		t.Errorf("cold %+v %+v, warm %+v", cold.Counts, cold.Logged, warm.Logged)
	}
	if d := warm.Delta; d != nil {
		for _, it := range d.Fixed {
			if it.Kind == triage.KindCudagraphPartition {
				t.Errorf("a partition hidden by the cache counted as fixed: %+v", it)
			}
		}
	}
	var b strings.Builder
	WriteText(&b, s, triage.TextOptions{Width: 300})
	text := b.String()
	if !strings.Contains(text, "1 non-cudagraphable partition(s) · 0 CUDA-graph re-recording(s)") ||
		!strings.Contains(text, "partitions not known (graphs from the FX graph cache print none)") {
		t.Errorf("log:\n%s", text)
	}
}

func TestSameNames(t *testing.T) {
	if !sameNames("perf_hints,cudagraphs,graph_breaks", "graph_breaks, cudagraphs,perf_hints") || sameNames("a,b", "a") {
		t.Error("sameNames")
	}
}

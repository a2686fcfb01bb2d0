package story

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
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
			if it.Kind == findings.KindCudagraphPartition {
				t.Errorf("a partition hidden by the cache counted as fixed: %+v", it)
			}
		}
	}
	var b strings.Builder
	WriteText(&b, s, text.Options{Width: 300})
	text := b.String()
	if !strings.Contains(text, "1 non-cudagraphable partition · 0 CUDA-graph re-recordings") ||
		!strings.Contains(text, "partitions not known (graphs from the FX graph cache print none)") {
		t.Errorf("log:\n%s", text)
	}
}

func TestSameNames(t *testing.T) {
	if !report.SameLogNames("perf_hints,cudagraphs,graph_breaks", "graph_breaks, cudagraphs,perf_hints") || report.SameLogNames("a,b", "a") {
		t.Error("SameLogNames")
	}
}

// The H100 end-to-end run of 2026-11-23: the log counts g13b's 3 re-recordings (not its 10 failed checks) and
// says, for each run, whether skips could print (torch 2.11: under any TORCH_LOGS) and that the breaks-preset run
// of g01 could not print the partition its cudagraphs-preset run shows.
func TestStoryGPUEndToEnd20261123(t *testing.T) {
	store := t.TempDir()
	for _, r := range []string{"0001-cudagraphs", "0002-breaks", "0003-cudagraphs", "0004-cudagraphs"} {
		if out, err := exec.Command("cp", "-r", filepath.Join("..", "..", "testdata", "gpu-e2e", "e2e-20261123", r), store).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	s, err := Build(store)
	if err != nil || len(s.Runs) != 4 {
		t.Fatalf("%v %+v", err, s)
	}
	if c := s.Runs[2].Counts; c.CudagraphRerecords != 3 || !s.Runs[1].Logged.CudagraphSkips {
		t.Errorf("g13b counts %+v, g01 breaks logged %+v", c, s.Runs[1].Logged)
	}
	var b strings.Builder
	WriteText(&b, s, text.Options{Width: 300})
	text := b.String()
	if !strings.Contains(text, "1 CUDA-graph skip · 0 compile errors · 0 non-cudagraphable partitions · 3 CUDA-graph re-recordings") ||
		strings.Contains(text, "10 CUDA-graph re-recording") || !strings.Contains(text, "0 limit hits · 0 CUDA-graph skips · 0 compile errors · partitions and re-recordings not logged (no TORCH_LOGS cudagraphs) · single process") {
		t.Errorf("log:\n%s", text)
	}
}

package compare_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// B's TORCH_LOGS had cudagraphs, but its graph came from the FX graph cache, which prints no partitions: the diff
// says so (the bringup log's words), never that B's TORCH_LOGS left them out (real H100 runs: a cold cudagraphs
// run and a warm rerun of the same repro).
func TestDiffNamesTheFXGraphCacheForHiddenPartitions(t *testing.T) {
	a, b := "../../testdata/gpu-e2e/0001-cudagraphs", "../../testdata/gpu-e2e/0008-custom"
	out := triagetest.Diff(t, "text", 200, a, b)
	if strings.Contains(out, "B did not log them (TORCH_LOGS)") ||
		!strings.Contains(out, "non-cudagraphable partitions: B loaded its graphs from the FX graph cache, which prints none") {
		t.Errorf("text:\n%s", out)
	}
	out = triagetest.Diff(t, "json", 80, a, b)
	var doc struct {
		NotCompared []string `json:"not_compared"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil ||
		strings.Join(doc.NotCompared, "\n") != "non-cudagraphable partitions: B loaded its graphs from the FX graph cache, which prints none" {
		t.Errorf("json %v %q", err, doc.NotCompared)
	}
}

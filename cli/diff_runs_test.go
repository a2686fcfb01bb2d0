package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// B's TORCH_LOGS had cudagraphs, but its graph came from the FX graph cache, which prints no partitions: the diff
// says so (the bringup log's words), never that B's TORCH_LOGS left them out (real H100 runs: a cold cudagraphs
// run and a warm rerun of the same repro).
func TestDiffNamesTheFXGraphCacheForHiddenPartitions(t *testing.T) {
	a, b := "../testdata/gpu-e2e/0001-cudagraphs", "../testdata/gpu-e2e/0008-custom"
	code, out, _ := run(t, "diff", "--width", "200", a, b)
	if code != 0 || strings.Contains(out, "B did not log them (TORCH_LOGS)") ||
		!strings.Contains(out, "non-cudagraphable partitions: B loaded its graphs from the FX graph cache, which prints none") {
		t.Errorf("text %d:\n%s", code, out)
	}
	code, out, _ = run(t, "diff", "--format", "json", a, b)
	var doc struct {
		NotCompared []string `json:"not_compared"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 ||
		strings.Join(doc.NotCompared, "\n") != "non-cudagraphable partitions: B loaded its graphs from the FX graph cache, which prints none" {
		t.Errorf("json %d %v %q", code, err, doc.NotCompared)
	}
}

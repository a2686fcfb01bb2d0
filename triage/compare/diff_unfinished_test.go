package compare_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// Two runs the tool stopped (one inside `import torch`, one in its first compile) reached little: no item was left
// out, yet what neither reached is no "no difference". Text and JSON say what was not compared.
func TestDiffOfRunsThatDidNotCompleteSaysWhatWasNotCompared(t *testing.T) {
	a, b := "../../testdata/recorded/stopped-in-import/runs/0001-breaks", "../../testdata/recorded/stopped-dist-hang/runs/0001-breaks"
	wantA, wantB := "new or more: A did not complete (stopped by torchtriage (timed out after 4s))",
		"gone or fewer: B did not complete (stopped by torchtriage (timed out after 45s))"
	out := triagetest.Diff(t, "text", 200, a, b)
	if strings.Contains(out, "No difference in graph breaks") || !strings.Contains(out, "Not compared") ||
		!strings.Contains(out, wantA) || !strings.Contains(out, wantB) ||
		!strings.Contains(out, "No difference in what both sides reached of graph breaks") {
		t.Errorf("text:\n%s", out)
	}
	out = triagetest.Diff(t, "json", 80, a, b)
	var doc struct {
		NotCompared []string `json:"not_compared"`
	}
	nc := ""
	if err := json.Unmarshal([]byte(out), &doc); err == nil {
		nc = strings.Join(doc.NotCompared, "\n")
	}
	if !strings.Contains(nc, wantA) || !strings.Contains(nc, wantB) {
		t.Errorf("json %q", doc.NotCompared)
	}
}

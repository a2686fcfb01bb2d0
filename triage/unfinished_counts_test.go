package triage_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A run that did not finish (stopped by the tool's timeout: testdata/recorded/lagging-rank) counted what it had
// reached: the bring-up log and the TUI word its counts as floors ("≥1 graph break"), but `report` of the same run
// dir read "graph breaks 1 distinct (1 record) · recompiles 0 · …" and "rank 0: 0 breaks, 0 recompiles" as if the
// program had run to its end. A finished run's counts stay exact.
func TestReportCountsOfAnUnfinishedRunAreFloors(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "lagging-rank", "runs", "0001-breaks")
	out := triagetest.ReportText(t, 200, dir)
	counts := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "graph breaks ") {
			counts = l
		}
	}
	for _, want := range []string{"graph breaks ≥1 distinct (≥1 record)", "recompiles ≥0", "limit hits ≥0", "runtime errors ≥0"} {
		if !strings.Contains(counts, want) {
			t.Errorf("counts line %q lacks %q", counts, want)
		}
	}
	if !strings.Contains(out, "rank 0: ≥0 breaks, ≥0 recompiles") {
		t.Errorf("per rank:\n%s", out)
	}
	// a run that finished keeps exact counts
	fin := filepath.Join("..", "testdata", "recorded", "float-arg", "runs", "0002-recompiles")
	if out := triagetest.ReportText(t, 200, fin); strings.Contains(out, "≥") {
		t.Errorf("finished run:\n%s", out)
	}
}

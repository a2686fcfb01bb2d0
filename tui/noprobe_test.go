package tui

import (
	"strings"
	"testing"
)

// The Ranks view says why there is no probe data in words true of what is on screen: opened logs that hold none
// (not "demo, --no-probe, or the run is still going", none of which an opened torchrun log is).
func TestNoProbeReasonFitsTheRun(t *testing.T) {
	m := openModel(t, 120, 40, "r05_dist_c10d.triage.log")
	press(m, "R")
	s := plain(m)
	if !strings.Contains(s, "no probe data in the opened files") || strings.Contains(s, "the run is still going") {
		t.Errorf("opened logs:\n%s", s)
	}
}

// With no rank to show, the Per rank table has no "–" to explain: no "not logged" legend under its header.
func TestRanksViewNoLegendWithoutRows(t *testing.T) {
	m := openModel(t, 80, 24, "../../testdata/fixtures/torch-2.14/gb_recompile.no_torch_logs.log")
	press(m, "R")
	if s := plain(m); strings.Contains(s, "not logged (TORCH_LOGS)") {
		t.Errorf("a legend with no row:\n%s", s)
	}
}

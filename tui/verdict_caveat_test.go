package tui

import (
	"strings"
	"testing"
)

// A steady verdict on the TUI keeps the report's caveat about what was not logged (the H100 run of g01 under the
// breaks preset: the report adds that non-cudagraphable partitions and re-recordings were not logged, the TUI
// showed only "✓ steady state"), and a summary ending in "?" gets no "." after it (force-eager read "…?.").
func TestVerdictPaneKeepsTheCaveat(t *testing.T) {
	m := openModel(t, 120, 40, "../../testdata/gpu-e2e/e2e-20261126/0002-breaks")
	s := strings.Join(strings.Fields(plain(m)), " ")
	if !strings.Contains(s, "steady state") || !strings.Contains(s, "re-recordings were not logged") {
		t.Errorf("steady without its caveat:\n%s", plain(m))
	}
	m = openModel(t, 120, 40, "../../testdata/recorded/force-eager/runs/0001-breaks")
	if s := plain(m); strings.Contains(s, "?.") || !strings.Contains(s, "torch.compile?") {
		t.Errorf("'?.':\n%s", s)
	}
}

// A run that compiled nothing (force_eager, testdata/recorded/force-eager) counts 0 breaks and 0 recompiles as the
// report does ("graph breaks 0 distinct (0 records)"): the panes said "not counted".
func TestNothingCompiledCountsZeroAsTheReport(t *testing.T) {
	m := openModel(t, 120, 40, "../../testdata/recorded/force-eager/runs/0001-breaks")
	s := plain(m)
	if strings.Contains(s, "not counted") || !strings.Contains(s, "Graph breaks · 0 · nothing compiled") || !strings.Contains(s, "Recompiles · 0 · nothing compiled") {
		t.Errorf("titles:\n%s", s)
	}
}

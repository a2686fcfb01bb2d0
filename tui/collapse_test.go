package tui

import (
	"path/filepath"
	"strings"
	"testing"
)

// At 80×24 a pane with one row kept six while the Recommended box was cut after its first two lines: the lists
// take what they show, and the box the rest, as far as its text goes.
func TestPanesGiveTheirEmptyRowsToTheRecommendedBox(t *testing.T) {
	m := liveModel(t, 80, 24)
	feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
	s := plain(m)
	if !strings.Contains(s, "Then: 2.") { // the box went on to the playbook's next steps
		t.Errorf("the Recommended box is cut while the lists have empty rows:\n%s", s)
	}
	for _, l := range strings.Split(s, "\n") {
		if strings.Trim(l, " ┃│") == "" && strings.ContainsAny(l, "┃│") {
			t.Errorf("an empty row is kept in a pane:\n%s", s)
			break
		}
	}
}

// The rank-disagreement box names what differs and on which rank (the finding's own Do), not the playbook's
// generic "Remove the rank-specific cause shown in the per-rank findings."
func TestRankDisagreementBoxNamesTheBreakAndRank(t *testing.T) {
	m := liveModel(t, 120, 40)
	feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
	if r := m.selected(); r == nil || r.kind != "rank_disagreement" {
		t.Fatalf("selected %+v, want the rank disagreement first", r)
	}
	s := squeeze(plain(m))
	if strings.Contains(s, "rank-specific cause") || !strings.Contains(s, squeeze("Do: 1. Remove what only rank 0 does (rank 1 does not): graph break print() at r05_dist_c10d.py:10")) {
		t.Errorf("the box does not name the differing break and rank:\n%s", plain(m))
	}
}

// A recompile of a compiled torch module (torch's wrapper inner; the probe named it) is listed by the module's
// class, at the user's call of it (testdata/recorded/module-wrapper, real 2.14.1): the row read "inner
// external_utils.py:67".
func TestModuleRecompileRowNamesTheModule(t *testing.T) {
	m := openPath(t, 240, 32, filepath.Join("..", "testdata", "recorded", "module-wrapper", "runs", "0001-breaks"))
	s := plain(m)
	if strings.Contains(s, "inner") || !strings.Contains(s, "TransformerEncoderLayer r24_module_wrapper.py:12 step") {
		t.Errorf("recompile rows:\n%s", s)
	}
}

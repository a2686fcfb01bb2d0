package compare_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// The diff of a rank fix (r05's extra print on rank 0 → r06's functional collectives, whose traces show both
// ranks compiling alike) says the disagreement is gone, in text and JSON; it listed only the gone break.
func TestDiffOfARankFixSaysTheDisagreementIsGone(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "fixtures", "torch-2.14")
	a, b := filepath.Join(dir, "r05_dist_c10d.triage.log"), filepath.Join(dir, "r06_dist_funcol.trace")
	text := triagetest.Diff(t, "text", 400, a, b)
	if !strings.Contains(text, "Ranks: the ranks' disagreement is gone: A rank 0 differs from rank 1: extra graph break print() at r05_dist_c10d.py:10") ||
		!strings.Contains(text, "· B all 2 ranks agree (0,1)") {
		t.Errorf("diff:\n%s", text)
	}
	if js := triagetest.Diff(t, "json", 0, a, b); !strings.Contains(js, `"rank_agreement": {`) || !strings.Contains(js, `"change": "gone"`) {
		t.Errorf("diff JSON:\n%s", js)
	}
	if back := triagetest.Diff(t, "text", 400, b, a); !strings.Contains(back, "Ranks: the ranks now disagree: A all 2 ranks agree (0,1) · B rank 0 differs from rank 1") {
		t.Errorf("diff the other way:\n%s", back)
	}
}

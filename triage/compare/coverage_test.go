package compare

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/report"
)

// More breaks beside more calls captured and no more fallbacks is said as such, in the Coverage line and the
// verdict; fewer captured with more fallbacks is said too, never "breaks up, coverage up".
func TestCoverageChangeWords(t *testing.T) {
	a := &report.Coverage{CallsCaptured: 2, UniqueGraphs: 1, FramesTotal: 1, FramesOK: 1}
	b := &report.Coverage{CallsCaptured: 84, UniqueGraphs: 19, FramesTotal: 19, FramesOK: 19}
	up := CoverageChange{A: a, B: b, GraphBreaksA: 1, GraphBreaksB: 18, MoreCaptured: report.MoreCaptured(a, b)}
	if w := up.Words(); w != "graph breaks 1 → 18 · calls captured 2 → 84 · graphs 1 → 19 · fallbacks to eager 0 → 0 (breaks up, coverage up)" {
		t.Errorf("words %q", w)
	}
	if !up.Changed() || !strings.HasPrefix(up.Verdict(), "breaks up, coverage up (calls captured 2 → 84") {
		t.Errorf("verdict %q", up.Verdict())
	}
	c := &report.Coverage{CallsCaptured: 1, UniqueGraphs: 1, FramesTotal: 2, FramesOK: 1, FallbacksToEager: 1}
	down := CoverageChange{A: a, B: c, GraphBreaksA: 1, GraphBreaksB: 2, MoreCaptured: report.MoreCaptured(a, c)}
	if strings.Contains(down.Words(), "coverage up") || !strings.HasPrefix(down.Verdict(), "coverage down") {
		t.Errorf("%q / %q", down.Words(), down.Verdict())
	}
	half := CoverageChange{A: nil, B: b, GraphBreaksB: 3}
	if half.Changed() || !strings.Contains(half.Words(), "calls captured – → 84") {
		t.Errorf("a side without counters: %q", half.Words())
	}
}

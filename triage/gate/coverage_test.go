package gate

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// --baseline: new graph breaks beside more calls captured and no more fallbacks to eager are "breaks up, coverage
// up", not failures; fewer calls captured, more fallbacks, a new recompile, or a side without counters fail as
// before.
func TestBreaksUpCoverageUp(t *testing.T) {
	was := &report.Coverage{CallsCaptured: 2, UniqueGraphs: 1, FramesTotal: 1, FramesOK: 1}
	more := &report.Coverage{CallsCaptured: 84, UniqueGraphs: 19, FramesTotal: 19, FramesOK: 19}
	fewer := &report.Coverage{CallsCaptured: 1, UniqueGraphs: 1, FramesTotal: 1, FramesOK: 1}
	fellBack := &report.Coverage{CallsCaptured: 84, UniqueGraphs: 19, FramesTotal: 20, FramesOK: 19, FallbacksToEager: 1}
	breaks := []BaselineItem{{Kind: findings.KindGraphBreak}, {Kind: findings.KindGraphBreak}}
	recompile := append(breaks[:1:1], BaselineItem{Kind: findings.KindRecompile})
	if got := capturedMore(was, more, breaks); !strings.HasPrefix(got, "breaks up, coverage up: 2 new graph breaks not in the baseline, not failed: calls captured 2 → 84") {
		t.Errorf("more captured: %q", got)
	}
	for name, c := range map[string]struct {
		was, now *report.Coverage
		fresh    []BaselineItem
	}{
		"fewer captured":      {was, fewer, breaks},
		"more fell back":      {was, fellBack, breaks},
		"a new recompile":     {was, more, recompile},
		"baseline not probed": {nil, more, breaks},
		"this run not probed": {was, nil, breaks},
		"nothing new":         {was, more, nil},
	} {
		if got := capturedMore(c.was, c.now, c.fresh); got != "" {
			t.Errorf("%s: %q, want the items to fail", name, got)
		}
	}
}

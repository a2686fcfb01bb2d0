package runs

import (
	"strings"
	"testing"
)

// A process without rank (Rank -1: the probe gave it rank 0 only by default) is named "the process" in the pack's
// versions, never "rank 0"; ranks keep their numbers.
func TestVersionLinesOfAProcessWithoutRank(t *testing.T) {
	v := ProcessVersions{Rank: -1, Torch: "2.14.1", Python: "3.13.5"}
	got := versionLines([]ProcessVersions{v})
	if len(got) != 1 || !strings.HasPrefix(got[0], "the process: torch 2.14.1") || strings.Contains(got[0], "rank") {
		t.Errorf("one process: %q", got)
	}
	w := v
	w.Rank = -1
	if got := versionLines([]ProcessVersions{v, w}); len(got) != 1 || !strings.HasPrefix(got[0], "2 processes: torch") {
		t.Errorf("two processes: %q", got)
	}
	r0, r1 := v, v
	r0.Rank, r1.Rank = 0, 1
	if got := versionLines([]ProcessVersions{r0, r1}); len(got) != 1 || !strings.HasPrefix(got[0], "ranks 0-1: torch") {
		t.Errorf("two ranks: %q", got)
	}
}

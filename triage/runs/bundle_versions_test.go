package runs

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/probe"
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

// A probed run none of whose processes imported torch has no versions: the README says the probe saw no torch,
// not that the run was made with --no-probe (it was not); a run without the probe still says --no-probe.
func TestReadmeVersionsOfAProbedRunWithoutTorch(t *testing.T) {
	probed := Meta{Name: "0001-eager", Env: map[string]string{probe.DirEnv: "/s/0001-eager/probe"}}
	got := readmeText(probed, nil, "", BundleOptions{}, nil)
	if strings.Contains(got, "--no-probe") || !strings.Contains(got, "- not recorded: the probe saw no process import torch") {
		t.Errorf("probed, no torch:\n%s", got)
	}
	if got := readmeText(Meta{Name: "0002-eager"}, nil, "", BundleOptions{}, nil); !strings.Contains(got, "the run was not probed (run without --no-probe") {
		t.Errorf("not probed:\n%s", got)
	}
}

package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/tui/cells"
)

// The runs view said "0 breaks · 0 recompiles · 0 limit hits" of a run that died of CUDA OOM, of one the tool
// stopped at its timeout and of one with CUDA-graph skips: clean zeros. Each row says how the run ended and the
// report's verdict; the counts of a run that did not complete are floors (what it reached), as the bringup log's.
func TestRunsViewSaysHowARunEndedAndItsVerdict(t *testing.T) {
	e2e := filepath.Join("..", "testdata", "gpu-e2e", "e2e-20261127")
	for _, c := range []struct {
		path string
		want []string
	}{
		{filepath.Join(e2e, "g14-oom"), []string{"exited with code 1 · ≥0 breaks · ≥0 recompiles · ≥0 limit hits",
			"verdict: not steady: 1 process crashed"}},
		{filepath.Join("..", "testdata", "recorded", "interrupt-reraise", "runs", "0001-breaks"), []string{
			"stopped by torchtriage (timed out after 8s) · ≥0 breaks",
			"verdict: stopped by torchtriage (timed out after 8s) before the run finished"}},
		{filepath.Join(e2e, "g16-skips"), []string{"exited 0 · 0 breaks · 0 recompiles · 0 limit hits · 3 skips",
			"verdict: not steady: 3 CUDA-graph skips"}},
	} {
		for _, w := range []int{80, 120} {
			m := openPath(t, w, 24, c.path)
			press(m, "h")
			s := plain(m)
			for _, want := range c.want {
				if !strings.Contains(s, strings.TrimSuffix(cells.Cut(want, w-20), cells.Ellipsis)) { // at 80 columns the line may be cut
					t.Errorf("%s at %d: runs view lacks %q:\n%s", filepath.Base(c.path), w, want, s)
				}
			}
		}
	}
}

package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/tui/cells"
)

// `i` of an opened run dir showed only "opened PATH" and the torch version, though its meta.json has the command
// and how it ended: it shows both (how it ended as the verdict words it: the tool's own stop is no failure).
func TestInfoOfAnOpenedRunDir(t *testing.T) {
	for _, c := range []struct {
		path string
		want []string
	}{
		{filepath.Join("..", "testdata", "gpu-e2e", "e2e-20261127", "g14-oom"), []string{"python3 g14_cuda_oom.py",
			"exited with code 1"}},
		{filepath.Join("..", "testdata", "recorded", "interrupt-reraise", "runs", "0001-breaks"), []string{"python3 hang1.py",
			"stopped by torchtriage (timed out after 8s)"}},
		{filepath.Join("..", "testdata", "recorded", "quiet-rank", "runs", "0013-breaks"), []string{
			"torchrun --nproc-per-node 2 --master-port 29611 dist.py", "exited 0"}},
	} {
		m := openPath(t, 120, 32, c.path)
		press(m, "i")
		s := plain(m)
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: info lacks %q:\n%s", filepath.Base(c.path), w, s)
			}
		}
	}
}

// The main screen of a run a process died in shows the report's "First failure:" line, wrapped to the width.
func TestMainScreenShowsTheFirstFailure(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := openPath(t, w, 24, filepath.Join("..", "testdata", "gpu-e2e", "e2e-20261127", "g14-oom"))
		s := plain(m)
		lineWith(t, s, " First failure: the process failed: torch.OutOfMemoryError:")
		if f := "First failure: " + clean(m.cur.snap.analysis.Verdict.FirstFailure); !strings.Contains(squeeze(s), squeeze(f)) {
			t.Errorf("%d cols: %q not whole:\n%s", w, f, s)
		}
		lines := strings.Split(s, "\n")
		if len(lines) != 24 {
			t.Errorf("%d lines at %d cols", len(lines), w)
		}
		for _, l := range lines {
			if cells.Width(l) > w {
				t.Errorf("%d cols: %q", w, l)
			}
		}
	}
	m := openPath(t, 120, 32, filepath.Join("..", "testdata", "recorded", "quiet-rank", "runs", "0013-breaks"))
	if strings.Contains(plain(m), "First failure") { // none in the report: none on the screen
		t.Errorf("screen:\n%s", plain(m))
	}
}

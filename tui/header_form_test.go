package tui

import (
	"strings"
	"testing"
)

// The header starts in one form at every width: " run 1 · breaks …". The tool's name came and went with the room
// the TORCH_LOGS names left (" torchtriage · run 1 · …" at 200 columns, " run 1 · …" at 120 with long names).
func TestHeaderPrefixIsOneForm(t *testing.T) {
	for _, w := range []int{80, 100, 120, 160, 240} {
		m := liveModel(t, w, 30)
		feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
		if h := strings.Split(plain(m), "\n")[0]; !strings.HasPrefix(h, " run 1 · breaks") {
			t.Errorf("%d columns: header %q", w, h)
		}
	}
}

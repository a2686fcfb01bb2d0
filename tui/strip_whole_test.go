package tui

import (
	"strings"
	"testing"
)

// The ranks strip cut its agreement at 80 columns ("· not compared: the…" on the peer-abort run, "· not…" on the
// stopped dist hang): where the whole words do not fit beside the checklist step, the strip says it short and
// whole ("not compared (R)"; R's view says why), never a cut word.
func TestRanksStripAgreementIsWholeAt80Columns(t *testing.T) {
	for _, c := range []struct{ in, want80, want120 string }{
		{"../../testdata/recorded/peer-abort/runs/0001-breaks", "not compared (R)", "not compared: the run did not complete"},
		{"../../testdata/recorded/stopped-dist-hang/runs/0002-breaks", "not compared", "not compared: the run did not complete"},
		{"r05_dist_c10d.triage.log", "⚠ disagree: rank 0 +2 extra (R)", "⚠ disagree: rank 0 +2 extra (R)"},
	} {
		for _, size := range [][2]int{{80, 24}, {120, 32}} {
			m := openModel(t, size[0], size[1], c.in)
			lines := strings.Split(plain(m), "\n")
			strip := lines[len(lines)-2]
			want := c.want80
			if size[0] == 120 {
				want = c.want120
			}
			if !strings.Contains(strip, " · "+want) || strings.Contains(strings.Split(strip, "   ")[0], "…") {
				t.Errorf("%s at %v: want %q whole in the strip: %q", c.in, size, want, strip)
			}
		}
	}
}

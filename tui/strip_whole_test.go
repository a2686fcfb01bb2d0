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
		{"r05_dist_c10d.triage.log", "⚠ disagree (R)", "⚠ disagree: rank 0 +2 extra (R)"}, // 80: beside "1 of 6 done"
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

// Where the counts themselves do not fit beside the step, the strip dropped into a word ("· ≥0…" of the rendezvous
// failure, "nothing compiled (torch.compile off…" of compile-off at 80 columns): the "nothing compiled" phrase loses
// its reason first (the verdict above says it whole), then whole items give way to "· …".
func TestRanksStripCountsAreWholeItems(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"../../testdata/recorded/rendezvous-libuv/runs/0001-breaks", " torchrun job, no rank prefix · ≥0 breaks · …"},
		{"../../testdata/recorded/compile-off/runs/0001-breaks", " 1 process · nothing compiled "},
	} {
		m := openModel(t, 80, 24, c.in)
		lines := strings.Split(plain(m), "\n")
		strip := lines[len(lines)-2]
		left := strings.Split(strip, "   ")[0]
		if !strings.HasPrefix(strip, c.want) || (strings.Contains(left, "…") && !strings.HasSuffix(left, " · …")) {
			t.Errorf("%s: want %q, whole items: %q", c.in, c.want, strip)
		}
	}
}

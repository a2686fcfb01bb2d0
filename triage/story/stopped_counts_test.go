package story

import (
	"bytes"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/text"
)

// A run torchtriage stopped counted only what it reached: the log's counts are floors ("≥0 graph breaks"), as the
// trend line and the TUI's runs list say, never a bare "0 graph breaks" that no finished run supports (recorded:
// stopped inside `import torch` at a 4 s timeout; stopped in the middle of the first compile).
func TestStoppedRunCountsAreFloors(t *testing.T) {
	for _, store := range []string{"../../testdata/recorded/stopped-in-import/runs", "../../testdata/recorded/stopped-dist-hang/runs"} {
		s, err := Build(store)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Runs[0].CountsAreFloors {
			t.Errorf("%s: JSON counts_are_floors is false", store)
		}
		var txt, md bytes.Buffer
		WriteText(&txt, s, text.Options{Width: 200})
		WriteMarkdown(&md, s)
		for _, out := range []string{txt.String(), md.String()} {
			for _, bare := range []string{" 0 graph breaks", " 0 recompiles", " 0 limit hits", " 0 compile errors", "| 0 |"} {
				if strings.Contains(out, bare) {
					t.Errorf("%s: %q for a run the tool stopped:\n%s", store, bare, out)
				}
			}
			if !strings.Contains(out, "≥0 graph breaks") || !strings.Contains(out, "stopped by torchtriage (timed out after") {
				t.Errorf("%s: no floor or no word of the stop:\n%s", store, out)
			}
		}
	}
}

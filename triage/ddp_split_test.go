package triage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// A split message of the ddp_graphs log that the input cuts before its end does not let the submodules be
// counted: the finding says the graph was split and that they are not counted, and a verdict gives no size.
// (The lines are rank 0's of the real 2.14.1 run, testdata/recorded/ddp-optimizer, up to its split graph.)
func TestDDPSplitCutIsNotCounted(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "recorded", "ddp-optimizer", "runs", "0001-custom", "stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasPrefix(l, "[rank0]:") {
			continue
		}
		keep = append(keep, l)
		if strings.HasSuffix(l, "[__ddp_graphs] ---submod_0 graph---\n") {
			break // the first submodule's head: its graph, the others and the end are cut
		}
	}
	path := filepath.Join(t.TempDir(), "cut.log")
	if err := os.WriteFile(path, []byte(strings.Join(keep, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, _, err := BuildReport([]string{path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.DDPSplits) != 1 || rep.DDPSplits[0].Submodules != -1 || rep.DDPSplits[0].CompileID != "4/0" {
		t.Fatalf("splits %+v", rep.DDPSplits)
	}
	a := Analyze(rep, nil, nil)
	var titles []string
	for _, f := range a.Findings {
		if f.Kind == report.KindDDPSplit {
			titles = append(titles, f.Title)
			if !f.Expected || f.Playbook != "expected-ddp-optimizer" || strings.Contains(f.Title, "into") ||
				!strings.Contains(f.Title, "not counted") {
				t.Errorf("cut split finding %+v", f)
			}
		}
	}
	if len(titles) != 1 {
		t.Errorf("split findings %q", titles)
	}
	if got := findings.DdpSplitAside(rep.DDPSplits); got != "1 DDPOptimizer split by design" { // what a steady verdict sets aside
		t.Errorf("verdict aside %q", got)
	}
}

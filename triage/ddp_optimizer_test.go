package triage_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// torch.compile(DDP(Net())) of a three-layer module of the script's own on two gloo ranks with bucket_cap_mb=1
// and TORCH_LOGS=graph_breaks,recompiles,ddp_graphs (testdata/recorded/ddp-optimizer, real 2.14.1 and 2.6): Dynamo
// compiles Net.forward as one graph and DDPOptimizer splits it at the bucket boundaries, which the ddp_graphs log
// prints on each rank as "---split graph---" calling submod_0, submod_1, submod_2 and their three graphs. No
// graph-break record says so, and the report said nothing of it: the split is shown as a by-design finding with
// the expected-ddp-optimizer playbook, kept out of the break counts and the gate, in text, Markdown and JSON.
func TestDDPOptimizerSplitShown(t *testing.T) {
	runs := filepath.Join("..", "testdata", "recorded", "ddp-optimizer", "runs")
	for _, c := range []struct {
		run    string
		cid    string
		breaks int
	}{
		{"0001-custom", "4/0", 2}, // 2.14.1: the split graph is frame 4's first compile
		{"0002-custom", "1/0", 1}, // 2.6
	} {
		dir := filepath.Join(runs, c.run)
		js := triagetest.ReportJSON(t, dir)
		var rep struct {
			Counts struct {
				GraphBreaks int `json:"graph_breaks"`
			} `json:"counts"`
			Findings []struct {
				Kind       string   `json:"kind"`
				Category   string   `json:"category"`
				Title      string   `json:"title"`
				Expected   bool     `json:"expected"`
				Playbook   string   `json:"playbook"`
				Records    int      `json:"records"`
				Ranks      []int    `json:"ranks"`
				CompileIDs []string `json:"compile_ids"`
			} `json:"findings"`
			Verdict struct {
				State   string `json:"state"`
				Summary string `json:"summary"`
			} `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(js), &rep); err != nil {
			t.Fatalf("%s: %v\n%s", c.run, err, js)
		}
		if rep.Counts.GraphBreaks != c.breaks {
			t.Errorf("%s: %d graph breaks counted, want DDP's wrapper's %d (the split is no break record)", c.run, rep.Counts.GraphBreaks, c.breaks)
		}
		var split []string
		for _, f := range rep.Findings {
			if f.Playbook != "expected-ddp-optimizer" {
				continue
			}
			split = append(split, f.Title)
			if f.Kind != "ddp_split" || !f.Expected || f.Category != "expected" || f.Records != 2 ||
				!slices.Equal(f.Ranks, []int{0, 1}) || !slices.Equal(f.CompileIDs, []string{c.cid}) ||
				!strings.Contains(f.Title, "DDPOptimizer split the graph of compile "+c.cid+" into 3 submodules") ||
				!strings.Contains(f.Title, "by design") {
				t.Errorf("%s: split finding %+v", c.run, f)
			}
		}
		if len(split) != 1 {
			t.Fatalf("%s: %d findings of expected-ddp-optimizer, want 1: %q\n%s", c.run, len(split), split, js)
		}
		if rep.Verdict.State != "steady" || !strings.Contains(rep.Verdict.Summary, "1 DDPOptimizer split (3 submodules) by design") {
			t.Errorf("%s: verdict %+v", c.run, rep.Verdict)
		}
		text := triagetest.ReportText(t, 300, dir)
		if !strings.Contains(text, split[0]) || !strings.Contains(lineWith(text, "Verdict:"), "DDPOptimizer split") {
			t.Errorf("%s: text report does not show the split %q:\n%s", c.run, split[0], text)
		}
		md := triagetest.Render(t, triagetest.ReportPaths(t, dir), "markdown", 80)
		if !strings.Contains(md, "DDPOptimizer split the graph of compile "+c.cid) || !strings.Contains(md, "`expected-ddp-optimizer`") {
			t.Errorf("%s: markdown does not show the split:\n%s", c.run, md)
		}
		if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: 0, RanksAgree: true}}, dir); code != 0 {
			t.Errorf("%s: check: exit %d\n%s%s", c.run, code, out, errb)
		}
	}
}

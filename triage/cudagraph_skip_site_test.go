package triage_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/text"
)

// A CUDA-graph skip names the user's code torch printed after "Found from :" (docs: gpu-cuda-graphs-2.11.md §2):
// the finding, the text row, Markdown and the JSON summary carry that site, not "—". Skips of one reason at
// different sites are different findings (g16: three skips in three functions).
func TestCudagraphSkipSite(t *testing.T) {
	for _, preset := range []string{"perf", "triage", "no_torch_logs"} {
		a := analyzeRun(t, Fx("torch-2.11-cuda/g02_cg_mutated_input."+preset+".log"), nil)
		var skip *findings.Finding
		for i := range a.Findings {
			if a.Findings[i].Kind == findings.KindCudagraphSkip {
				skip = &a.Findings[i]
			}
		}
		if skip == nil || skip.File != "/tmp/gpu/repro/g02_cg_mutated_input.py" || skip.Line != 6 || skip.Function != "f" {
			t.Fatalf("%s: skip finding %+v", preset, skip)
		}
		var txt, md strings.Builder
		render.WriteReport(&txt, a, "text", text.Options{Width: 200})
		render.WriteMarkdown(&md, a)
		if !strings.Contains(txt.String(), "cudagraph_skip · g02_cg_mutated_input.py:6 in f · ×1") ||
			!strings.Contains(txt.String(), "at g02_cg_mutated_input.py:6 f") {
			t.Errorf("%s: text report has no skip site:\n%s", preset, txt.String())
		}
		if !strings.Contains(md.String(), `g02\_cg\_mutated\_input.py:6 in f`) {
			t.Errorf("%s: markdown has no skip site:\n%s", preset, md.String())
		}
		j, _ := json.Marshal(a.Report.CudagraphSkips)
		if !strings.Contains(string(j), `"file":"/tmp/gpu/repro/g02_cg_mutated_input.py","line":6,"function":"f"`) {
			t.Errorf("%s: json %s", preset, j)
		}
	}

	sites := map[string]string{}
	for _, in := range []string{"g16_cg_no_partition.triage.log", "g16_cg_no_partition.trace"} {
		a := analyzeRun(t, Fx("torch-2.11-cuda/"+in), nil)
		for _, f := range a.Findings {
			if f.Kind == findings.KindCudagraphSkip {
				sites[in+" "+f.What] = text.Site(f.File, f.Line) + " " + f.Function
			}
		}
	}
	want := map[string]string{
		"g16_cg_no_partition.triage.log cpu device (arg1_1)":                  "g16_cg_no_partition.py:15 f_cpu",
		"g16_cg_no_partition.triage.log mutated inputs (1 instances)":         "g16_cg_no_partition.py:18 f_mut",
		"g16_cg_no_partition.triage.log incompatible op aten.nonzero.default": "g16_cg_no_partition.py:26 f_nonzero",
		// the trace has only the compile-time skips, with their stack in cudagraph_skip_reason
		"g16_cg_no_partition.trace cpu device (arg1_1)":                  "g16_cg_no_partition.py:15 f_cpu",
		"g16_cg_no_partition.trace incompatible op aten.nonzero.default": "g16_cg_no_partition.py:26 f_nonzero",
	}
	for k, v := range want {
		if sites[k] != v {
			t.Errorf("%s: site %q, want %q (all: %v)", k, sites[k], v, sites)
		}
	}
	if len(sites) != len(want) {
		t.Errorf("skip findings %v", sites)
	}
}

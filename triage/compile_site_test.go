package triage_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// Where the user called torch.compile is named with each recompile of what it compiled (the probe wraps
// torch.compile: compile_sites in rank*.json), on real runs of torch 2.14.1 and 2.6.0 (testdata/recorded/
// compile-site): torch's own module compiled at module_wrapper.py:8 (recompiles through torch's wrapper inner),
// the user's module at compile_sites.py:21 (its forward recompiles) and a function decorated with
// @torch.compile(dynamic=False) at compile_sites.py:15. The findings' titles, details and JSON, the report's text
// and check's line say it; before, the call site appeared nowhere.
func TestRecompilesNameTheirTorchCompileCall(t *testing.T) {
	for _, runs := range []string{"runs", "runs-2.6"} {
		dir := filepath.Join("..", "testdata", "recorded", "compile-site", runs)
		a := triagetest.ReportPaths(t, filepath.Join(dir, "0001-breaks"))
		n := 0
		for _, f := range a.Findings {
			if f.Kind != "recompile" {
				continue
			}
			n++
			if f.Module != "TransformerEncoderLayer" || f.CompiledAt == nil || filepath.Base(f.CompiledAt.File) != "module_wrapper.py" ||
				f.CompiledAt.Line != 8 || f.CompiledAt.Function != "<module>" ||
				!strings.Contains(f.Title, "the compiled module TransformerEncoderLayer (compiled at module_wrapper.py:8)") ||
				!strings.Contains(f.Detail, "Compiled at: module_wrapper.py:8 in <module> (its torch.compile call") {
				t.Errorf("%s: recompile finding compiled at %+v, title %q\ndetail %s", runs, f.CompiledAt, f.Title, f.Detail)
			}
		}
		text := triagetest.Render(t, a, "text", 200)
		js := triagetest.Render(t, a, "json", 0)
		if n == 0 || !strings.Contains(text, "called at module_wrapper.py:12 in step, compiled at module_wrapper.py:8 (the probe saw it)") ||
			!strings.Contains(js, `"compiled_at": {`) {
			t.Errorf("%s: %d recompile findings; report:\n%s", runs, n, text)
		}

		o := gate.RunOptions{Format: "text"}
		o.Rules.MaxGraphBreaks, o.Rules.MaxRecompiles = -1, 0
		res, out, _ := triagetest.CheckPaths(t, o, filepath.Join(dir, "0002-breaks"))
		for _, want := range []string{"forward (compiled at compile_sites.py:21 with dynamic=False) recompiles 2×", "loss_fn (compiled at compile_sites.py:15 with dynamic=False) recompiles 2×"} {
			if res.Exit != 1 || !strings.Contains(out, want) {
				t.Errorf("%s: check exit %d:\n%s\nwant %q", runs, res.Exit, out, want)
			}
		}
		o.Format, o.PathRoot = "github", "/tmp/ttrec"
		_, out, _ = triagetest.CheckPaths(t, o, filepath.Join(dir, "0002-breaks"))
		if !strings.Contains(out, "::error file=.scratch/compile_sites.py,line=11,title=torchtriage --max-recompiles=0::4 recompiles > 0: forward (compiled at compile_sites.py:21 with dynamic=False)") {
			t.Errorf("%s: check's GitHub annotations:\n%s", runs, out)
		}
		o.Format = "json"
		_, out, _ = triagetest.CheckPaths(t, o, filepath.Join(dir, "0002-breaks"))
		if strings.Count(out, `"compiled_at": {`) < 2 {
			t.Errorf("%s: check JSON names no compiled_at:\n%.3000s", runs, out)
		}
	}
}

// Recompiles of what torch.compile(dynamic=False) compiled (the probe records the call's dynamic=, real 2.14.1 and
// 2.6.0 runs of testdata/recorded/compile-site) are no recompiles "beyond automatic dynamic's first": dynamic=False
// turns automatic dynamic off, so each new size compiles again. The title, the verdict, the do and the JSON say
// so, with the rc-dynamic-false playbook, and none of them is counted as automatic dynamic's expected one; the
// module compiled without dynamic= keeps its words.
func TestDynamicFalseRecompilesSayAutomaticDynamicIsOff(t *testing.T) {
	for _, runs := range []string{"runs", "runs-2.6"} {
		dir := filepath.Join("..", "testdata", "recorded", "compile-site", runs)
		a := triagetest.ReportPaths(t, filepath.Join(dir, "0002-breaks"))
		n := 0
		for _, f := range a.Findings {
			if f.Kind != "recompile" {
				continue
			}
			n++
			if f.CompiledAt == nil || f.CompiledAt.Dynamic == nil || *f.CompiledAt.Dynamic || f.Playbook != "rc-dynamic-false" ||
				!strings.Contains(f.Title, "with dynamic=False) recompiles 2× on sizes of") ||
				!strings.Contains(f.Title, "dynamic=False turns automatic dynamic off, so each new size compiles again") ||
				strings.Contains(f.Title, "beyond automatic dynamic") || f.Expected || f.Unexpected() != f.Records ||
				!strings.HasPrefix(f.Do, "Drop dynamic=False at compile_sites.py:") || !strings.Contains(f.Do, "torch._dynamo.mark_dynamic(") {
				t.Errorf("%s: %+v\ntitle %q\ndo %q playbook %s", runs, f.CompiledAt, f.Title, f.Do, f.Playbook)
			}
		}
		js := triagetest.Render(t, a, "json", 0)
		if n != 2 || strings.Count(js, `"dynamic": false`) != 2 || !strings.Contains(a.Verdict.Summary, "4 recompiles under torch.compile(dynamic=False)") {
			t.Errorf("%s: %d recompile findings, verdict %q", runs, n, a.Verdict.Summary)
		}
		a = triagetest.ReportPaths(t, filepath.Join(dir, "0001-breaks")) // torch.compile(layer): no dynamic= given
		for _, f := range a.Findings {
			if f.CompiledAt != nil && (f.CompiledAt.Dynamic != nil || strings.Contains(f.Title, "dynamic=False")) {
				t.Errorf("%s: a call without dynamic= reads as one with it: %+v %q", runs, f.CompiledAt, f.Title)
			}
		}
	}
}

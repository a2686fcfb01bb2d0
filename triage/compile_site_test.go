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
		for _, want := range []string{"forward (compiled at compile_sites.py:21) recompiles 2×", "loss_fn (compiled at compile_sites.py:15) recompiles 2×"} {
			if res.Exit != 1 || !strings.Contains(out, want) {
				t.Errorf("%s: check exit %d:\n%s\nwant %q", runs, res.Exit, out, want)
			}
		}
		o.Format, o.PathRoot = "github", "/work/wt-screens2"
		_, out, _ = triagetest.CheckPaths(t, o, filepath.Join(dir, "0002-breaks"))
		if !strings.Contains(out, "::error file=.scratch/compile_sites.py,line=11,title=torchtriage --max-recompiles=0::4 recompiles > 0: forward (compiled at compile_sites.py:21)") {
			t.Errorf("%s: check's GitHub annotations:\n%s", runs, out)
		}
		o.Format = "json"
		_, out, _ = triagetest.CheckPaths(t, o, filepath.Join(dir, "0002-breaks"))
		if strings.Count(out, `"compiled_at": {`) < 2 {
			t.Errorf("%s: check JSON names no compiled_at:\n%.3000s", runs, out)
		}
	}
}

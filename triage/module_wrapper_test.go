package triage_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A compiled torch.nn module whose forward torch's trace rules skip (TransformerEncoderLayer: torch's own) is
// compiled through torch's wrapper `inner` (external_utils.py:67), all the log names; the probe recorded the
// module's class and the user's call of it (testdata/recorded/module-wrapper, real 2.14.1). The findings, the
// report's text name the module and the user's line (step() at line 12), not the wrapper: they read "the compiled
// module (torch's wrapper inner)", at torch's dropout.py:73.
func TestModuleWrapperRecompileNamesTheModuleAndTheCall(t *testing.T) {
	run := filepath.Join("..", "testdata", "recorded", "module-wrapper", "runs", "0001-breaks")
	a := triagetest.ReportPaths(t, run)
	text := triagetest.Render(t, a, "text", 200)
	var named int
	for _, f := range a.Findings {
		if f.Kind != "recompile" {
			continue
		}
		if f.Module != "TransformerEncoderLayer" || !strings.HasSuffix(f.File, "r24_module_wrapper.py") || f.Line != 12 ||
			f.Function != "step" || !strings.Contains(f.Title, "the compiled module TransformerEncoderLayer") {
			t.Errorf("recompile finding: module %q at %s:%d in %s, title %q", f.Module, f.File, f.Line, f.Function, f.Title)
		}
		named++
	}
	if named != 2 || !strings.Contains(text, "r24_module_wrapper.py:12 in step") ||
		!strings.Contains(text, "torch's wrapper of the compiled module TransformerEncoderLayer, called at r24_module_wrapper.py:12 in step (the probe saw it)") {
		t.Errorf("%d recompile findings; report:\n%s", named, text)
	}
	o := gate.RunOptions{Format: "github", PathRoot: "/work/wt-screens"}
	o.Rules.MaxGraphBreaks, o.Rules.MaxRecompiles = -1, 0
	res, out, _ := triagetest.CheckPaths(t, o, run)
	// the eval-mode recompile is a bounded variant (one per mode, d7af5f3), the new length automatic dynamic's:
	// neither fails the gate, so no annotation is written (compile_site_test.go checks one of a real failure)
	if res.Exit != 0 || !strings.Contains(out, "0 recompiles beyond automatic dynamic (and 2 expected") {
		t.Errorf("check exit %d:\n%s", res.Exit, out)
	}
}

// The same repro on torch 2.6 (its callbacks carry no compile id: the probe takes Dynamo's own): the recompile is
// named after the module and the user's line too (testdata/recorded/module-wrapper/runs-2.6).
func TestModuleWrapperRecompileOn26(t *testing.T) {
	run := filepath.Join("..", "testdata", "recorded", "module-wrapper", "runs-2.6", "0001-breaks")
	o := gate.RunOptions{Format: "github", PathRoot: "/work/wt-screens"}
	o.Rules.MaxGraphBreaks, o.Rules.MaxRecompiles = -1, 0
	res, out, _ := triagetest.CheckPaths(t, o, run)
	if res.Exit != 0 || !strings.Contains(out, "0 recompiles beyond automatic dynamic (and 2 expected") { // as on 2.14.1
		t.Errorf("check exit %d:\n%s", res.Exit, out)
	}
}

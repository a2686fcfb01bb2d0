package triage_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// torch.compile(dynamic=False): the first size change recompiles as automatic dynamic's does, but the graph keeps
// the size static; the dynamic log shows it (no create_symbol at [0/1]: testdata/recorded/dynamic-false, real
// 2.14.1 and 2.6). The gate counts it, where it passed "automatic dynamic, expected once"; under the default the
// dynamic log shows the symbol and the recompile stays expected.
func TestDynamicFalseRecompileFailsTheGate(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "dynamic-false")
	for _, v := range []string{"214", "26"} {
		log := filepath.Join(dir, "dynfalse-"+v+".log")
		if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: 0}}, log); code != 1 {
			t.Errorf("check %s: exit %d, want 1\n%s%s", log, code, out, errb)
		}
		out := triagetest.ReportText(t, 300, log)
		if !strings.Contains(out, "MEDIUM consider f recompiled for a new size of x (x[0] 8→16) and kept it static") ||
			strings.Contains(out, "expected once") || !strings.Contains(out, "logs seen in the input: dynamic,recompiles") {
			t.Errorf("report %s:\n%s", log, out)
		}
		auto := filepath.Join(dir, "dynauto-"+v+".log")
		if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: 0}}, auto); code != 0 {
			t.Errorf("check %s: exit %d, want 0\n%s%s", auto, code, out, errb)
		}
	}
}

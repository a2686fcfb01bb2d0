package triage_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A float argument's first new value is automatic dynamic's expected recompile, as an int argument's is: torch's
// specialize_float is False on 2.6 and 2.14.1, and the recorded run's dynamic log marks L['c'] dynamic after it
// (testdata/recorded/float-arg). It read "1 recompile beyond automatic dynamic", HIGH rc-value-float, and
// --max-recompiles 0 failed. r03_cache_limit, written as a recompile storm of a float argument, recompiles once
// on both versions for the same reason (expected, but without the dynamic log only assumed: testdata/recorded/
// dynamic-false).
func TestFloatArgumentRecompileIsAutomaticDynamic(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "float-arg", "runs", "0002-recompiles")
	if code, out, errb := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: 0}}, dir); code != 0 {
		t.Errorf("check: exit %d\n%s%s", code, out, errb)
	}
	out := triagetest.ReportText(t, 300, dir)
	if !strings.Contains(out, "g recompiled for a new float value of c (was 0.5): automatic dynamic, expected once") ||
		strings.Contains(out, "beyond automatic dynamic") {
		t.Errorf("report:\n%s", out)
	}
	for _, v := range []string{"torch-2.14", "torch-2.6"} {
		out := triagetest.ReportText(t, 300, filepath.Join("..", "testdata", "fixtures", v, "r03_cache_limit.triage.log"))
		// expected, but no dynamic log shows it: assumed
		if !strings.Contains(out, "f recompiled for a new float value of scale (was 0.25): expected once if automatic dynamic is on (the default; TORCH_LOGS=dynamic would show it)") {
			t.Errorf("%s r03:\n%s", v, out)
		}
	}
}

// A size recompile beyond automatic dynamic's first on one rank only says which (recorded automatic-dynamic-off
// 0029: rank 1 turned automatic dynamic off, rank 0's one recompile was its expected first; the finding read
// "beyond automatic dynamic's first · ranks 0,1 · ×2" as if both were).
func TestBeyondAutomaticDynamicNamesItsRanks(t *testing.T) {
	out := triagetest.ReportText(t, 300, filepath.Join("..", "testdata", "recorded", "automatic-dynamic-off", "runs", "0029-breaks"))
	if l := lineWith(out, "beyond automatic dynamic's first"); !strings.Contains(l, "on rank 1") {
		t.Errorf("finding %q\n%s", l, out)
	}
}

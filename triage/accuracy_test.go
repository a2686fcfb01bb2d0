package triage_test

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// PyTorch's accuracy check (TORCHDYNAMO_REPRO_AFTER=aot|dynamo, TORCHDYNAMO_REPRO_LEVEL=4) raises AccuracyError when
// the compiled graph is wrong: that is a wrong result, a HIGH finding of its own kind with the accuracy playbook,
// not a runtime error (2.14/2.6 after aot: the class itself) nor a backend failure (2.6 after dynamo: inside
// BackendCompilerFailed).
func TestAccuracyErrorIsAWrongResult(t *testing.T) {
	for _, log := range []string{"torch-2.14/minifier.aot_l4_accuracy.run.log", "torch-2.6/minifier.aot_l4_accuracy.run.log",
		"torch-2.6/minifier.dynamo_l4_accuracy.run.log", "torch-2.14/minifier.aot_l4_accuracy.repro.log"} {
		a := triagetest.ReportPaths(t, testlogs.Path(t, "compile-wrong", log))
		var acc []findings.Finding
		for _, f := range a.Findings {
			switch f.Kind {
			case findings.KindAccuracy:
				acc = append(acc, f)
			case findings.KindRuntimeError, findings.KindCompileError:
				t.Errorf("%s: the accuracy check's error is also a %s finding: %s", log, f.Kind, f.Title)
			}
		}
		if len(acc) != 1 {
			t.Fatalf("%s: %d accuracy findings, want 1", log, len(acc))
		}
		if a.NextStep.ID != "wrong" || !strings.HasPrefix(a.Verdict.Summary, "not steady: compiled result wrong") {
			t.Errorf("%s: verdict %q, next step %q: a wrong result comes first, and is never a pass", log, a.Verdict.Summary, a.NextStep.ID)
		}
		f := acc[0]
		if f.Severity != "high" || f.Category != findings.CategoryFix || f.Playbook != "accuracy-check-failed" ||
			!strings.Contains(f.Title, "wrong") || !strings.Contains(f.Detail, "AccuracyError") {
			t.Errorf("%s: %+v", log, f)
		}
	}
	// the recorded compile error and runtime error stay what they are
	for log, kind := range map[string]findings.Kind{"torch-2.14/ladder.compile_error.inductor.log": findings.KindCompileError,
		"torch-2.14/plain.runtime_error.log": findings.KindRuntimeError} {
		a := triagetest.ReportPaths(t, testlogs.Path(t, "compile-wrong", log))
		if len(a.Findings) == 0 || a.Findings[0].Kind != kind {
			t.Errorf("%s: findings %v, want a %s", log, a.Findings, kind)
		}
	}
}

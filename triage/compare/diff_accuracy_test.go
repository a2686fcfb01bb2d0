package compare_test

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A ladder's tiers under PyTorch's accuracy check: diffing the passing eager tier with the wrong inductor tier
// lists the wrong result as new; a run without the check is no gap worth naming (nothing is said of results).
func TestDiffListsAWrongResultAsNew(t *testing.T) {
	checked := func(code int) *report.RunFacts {
		out := report.OutcomeCompleted
		if code != 0 {
			out = report.OutcomeFailed
		}
		return &report.RunFacts{Outcome: out, ExitCode: &code, Direct: true, TorchLogsSet: true, TorchImported: 1, Probed: true,
			ToolEnv: map[string]string{"TORCHDYNAMO_REPRO_AFTER": "aot", "TORCHDYNAMO_REPRO_LEVEL": "4"}}
	}
	path := func(log string) string { return testlogs.Path(t, "compile-wrong", "torch-2.14", log) }
	eager := triagetest.AnalyzeRun(t, path("ladder.accuracy.eager.log"), checked(0))
	inductor := triagetest.AnalyzeRun(t, path("minifier.aot_l4_accuracy.run.log"), checked(1))
	res := compare.Diff(eager, inductor)
	if res.New != 1 || len(res.Items) != 1 || res.Items[0].Kind != "accuracy" {
		t.Errorf("new %d, items %+v", res.New, res.Items)
	}
	unchecked := triagetest.AnalyzeRun(t, path("ladder.accuracy.eager.log"), &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogsSet: true})
	res = compare.Diff(unchecked, unchecked)
	for _, nc := range res.NotCompared {
		if strings.Contains(nc, "wrong result") {
			t.Errorf("two runs without the check: %q", nc)
		}
	}
}

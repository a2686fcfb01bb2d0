package triagetest

import (
	"path/filepath"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Fixture is the path of a real log under testdata/fixtures ("torch-2.14/gb_recompile.triage.log").
func Fixture(tb testing.TB, name string) string { return testlogs.Path(tb, "fixtures", name) }

// LoadReport loads paths into a report, failing the test on an error.
func LoadReport(tb testing.TB, paths ...string) *report.Report {
	tb.Helper()
	l, err := report.Load(paths, report.LoadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return l.Report
}

// AnalyzeFiles analyzes logs with the built-in playbooks; a relative path is a fixture's (Fixture).
func AnalyzeFiles(tb testing.TB, paths ...string) *triage.Analysis {
	tb.Helper()
	for i, p := range paths {
		if !filepath.IsAbs(p) {
			paths[i] = Fixture(tb, p)
		}
	}
	set, err := playbooks.Builtin()
	if err != nil {
		tb.Fatal(err)
	}
	return triage.Analyze(LoadReport(tb, paths...), set, nil)
}

// SynthAnalysis analyzes the records add folds into an aggregator of ranks ranks, as a completed run whose
// TORCH_LOGS logged breaks and recompiles: what the synthetic records leave out (nothing) is known not to have
// happened.
func SynthAnalysis(tb testing.TB, ranks int, add func(agg *report.Aggregator)) *triage.Analysis {
	tb.Helper()
	agg := report.NewAggregator()
	agg.AddInput("synthetic.log", -1)
	for r := 0; r < ranks; r++ {
		agg.AddRank(r)
	}
	add(agg)
	return triage.AnalyzeRun(agg.Report(), nil, nil, &report.RunFacts{Outcome: report.OutcomeCompleted, TorchLogs: "graph_breaks,recompiles",
		TorchLogsSet: true, WorldSize: ranks})
}

// AnalyzeRun analyzes one log as a stored run with the facts run gives, with the built-in playbooks.
func AnalyzeRun(tb testing.TB, path string, run *report.RunFacts) *triage.Analysis {
	tb.Helper()
	set, err := playbooks.Builtin()
	if err != nil {
		tb.Fatal(err)
	}
	return triage.AnalyzeRun(LoadReport(tb, path), set, nil, run)
}

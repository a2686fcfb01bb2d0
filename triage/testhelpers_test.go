package triage

import (
	"io"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/report"
)

// analyzeFile is the analysis of inputs as `torchtriage report` makes it (no run, no probe).
func AnalyzeFile(t *testing.T, paths ...string) *Analysis {
	t.Helper()
	rep, _, err := BuildReport(paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	return Analyze(rep, nil, nil)
}

// buildReport loads paths into a report (Load without records) for the tests.
func BuildReport(paths []string, stdin io.Reader) (*report.Report, []string, error) {
	l, err := report.Load(paths, report.LoadOptions{Stdin: stdin})
	if err != nil {
		return nil, nil, err
	}
	return l.Report, l.Warnings, nil
}

// compileState is a compile state as the probe writes it (compile-rank<R>-<pid>.json), idle after its last compile,
// of a frame in /w/train.py.
func CompileState(rank, compiles int, cid, fn string, line int) report.ProbeCompileState {
	return report.ProbeCompileState{Rank: rank, RankSource: "env", PID: 7000 + rank, Phase: "idle", Trigger: "DYNAMO", CompileID: cid,
		Function: fn, File: "/w/train.py", Line: line, Compiles: compiles}
}

// compilesRun analyzes n ranks that each log the same break at train.py:10, with add's records on top, of a run in
// outcome o whose probes wrote states.
func CompilesRun(n int, o report.Outcome, states []report.ProbeCompileState, add func(agg *report.Aggregator)) *Analysis {
	agg := report.NewAggregator()
	agg.AddInput("synthetic_compiles.log", -1)
	for r := range n {
		agg.AddRank(r)
		agg.Add(testlogs.SynthBreak(r, 0, 0, 10, 10+r))
	}
	if add != nil {
		add(agg)
	}
	return AnalyzeRun(agg.Report(), nil, nil, &report.RunFacts{Outcome: o, StopReason: "timed out after 30s", TorchLogs: "graph_breaks,recompiles",
		TorchLogsSet: true, WorldSize: n, CompileStates: states})
}

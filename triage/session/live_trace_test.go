package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runner"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// A 2-rank torchrun job whose console lines carry no rank prefix (the demo's r06_dist_funcol under the trace
// preset) wrote a TORCH_TRACE file per rank into its run directory: the live screen's last analysis reads them as
// report and open of that directory do, and says the same about ranks. It said "torchrun job, no rank prefix"
// while report said "all 2 ranks agree".
func TestLiveRunReadsItsTracesAsOpenDoes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "0002-trace")
	if err := os.MkdirAll(filepath.Join(dir, "trace"), 0o755); err != nil {
		t.Fatal(err)
	}
	traces, _ := filepath.Glob(filepath.Join(filepath.Join(fixtures, "torch-2.14", "r06_dist_funcol.trace"), "*"))
	if len(traces) != 2 {
		t.Fatalf("trace files: %v", traces)
	}
	for _, p := range traces {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "trace", filepath.Base(p)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	console := fixtureLines(t, "r06_dist_funcol.withtrace.log")
	var stderr []byte
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	lr := NewFollower(1, t0)
	code := 0
	meta := &runs.Meta{ID: 1, Name: "0002-trace", Dir: dir, Preset: "trace", TorchLogs: "graph_breaks,recompiles",
		Launcher: "torchrun", Nproc: 2, ExitCode: &code, State: runs.StateExited, Start: t0}
	lr.started(meta)
	for i, l := range console {
		lr.Apply(Event{RunID: 1, Kind: runner.EventOutput, Stream: "stderr", Data: []byte(l)}, t0.Add(time.Duration(i)*time.Millisecond))
		stderr = append(stderr, l...)
	}
	lr.Apply(Event{RunID: 1, Kind: runner.EventExited, Meta: meta}, t0.Add(time.Minute))
	live := lr.Batch(nil, t0.Add(time.Minute)).Analysis

	if err := os.WriteFile(filepath.Join(dir, "stderr.log"), stderr, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := runs.WriteMeta(dir, *meta); err != nil {
		t.Fatal(err)
	}
	l, err := report.Load([]string{dir}, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opened := triage.AnalyzeRun(l.Report, nil, nil, RunFactsOfDir(dir))
	if !opened.RankAgreement.Agree || opened.Evidence.ProcessesText() == "torchrun job, no rank prefix" {
		t.Fatalf("the opened run: agreement %+v, processes %q", opened.RankAgreement, opened.Evidence.ProcessesText())
	}
	if live.RankAgreement.Summary != opened.RankAgreement.Summary || live.RankAgreement.Agree != opened.RankAgreement.Agree ||
		live.Evidence.ProcessesText() != opened.Evidence.ProcessesText() || live.Verdict.Summary != opened.Verdict.Summary {
		t.Errorf("live: %q agree %v, %q, verdict %q\nopen: %q agree %v, %q, verdict %q",
			live.RankAgreement.Summary, live.RankAgreement.Agree, live.Evidence.ProcessesText(), live.Verdict.Summary,
			opened.RankAgreement.Summary, opened.RankAgreement.Agree, opened.Evidence.ProcessesText(), opened.Verdict.Summary)
	}
}

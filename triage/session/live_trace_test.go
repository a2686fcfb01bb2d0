package session

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"
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

// The live screen reads the ranks' TORCH_TRACE files while they are written, not only when the run ends: mid-run,
// with each rank's trace written part way (cut mid-line) and the console's lines without rank prefix, the live
// analysis says what report says of the stored run about ranks. Before, it said "torchrun job, no rank prefix"
// until the run ended.
func TestLiveRunReadsItsTracesWhileTheyAreWritten(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "0002-trace")
	if err := os.MkdirAll(filepath.Join(dir, "trace"), 0o755); err != nil {
		t.Fatal(err)
	}
	traces, _ := filepath.Glob(filepath.Join(filepath.Join(fixtures, "torch-2.14", "r06_dist_funcol.trace"), "*"))
	if len(traces) != 2 {
		t.Fatalf("trace files: %v", traces)
	}
	rest := map[string][]byte{}
	for _, p := range traces {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// mid-run: the first compile's metrics written and a line after them (an envelope is read when the next
		// line ends: its payload lines may follow), the next line part way
		m := bytes.Index(data, []byte(`{"compilation_metrics": `))
		if m < 0 {
			t.Fatalf("%s: no compilation_metrics", p)
		}
		cut := m + bytes.IndexByte(data[m:], '\n') + 1
		cut += bytes.IndexByte(data[cut:], '\n') + 1
		cut += bytes.IndexByte(data[cut:], '\n') / 2
		dst := filepath.Join(dir, "trace", filepath.Base(p))
		if err := os.WriteFile(dst, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		rest[dst] = data[cut:]
	}
	console := fixtureLines(t, "r06_dist_funcol.withtrace.log")
	var stderr []byte
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	lr := NewFollower(1, t0)
	meta := &runs.Meta{ID: 1, Name: "0002-trace", Dir: dir, Preset: "trace", TorchLogs: "graph_breaks,recompiles",
		Launcher: "torchrun", Nproc: 2, State: runs.StateRunning, Start: t0}
	lr.started(meta)
	for i, l := range console {
		lr.Apply(Event{RunID: 1, Kind: runner.EventOutput, Stream: "stderr", Data: []byte(l)}, t0.Add(time.Duration(i)*time.Millisecond))
		stderr = append(stderr, l...)
	}
	lr.Flush()
	mid := lr.Batch(nil, t0.Add(30*time.Second))
	if mid.Final {
		t.Fatal("the batch is the final one: the test would prove nothing of the run's middle")
	}

	if lr.pollTraces(t0.Add(31 * time.Second)); lr.stale {
		t.Fatal("nothing was written to the traces, yet the analysis is stale")
	}
	for p, b := range rest { // the run goes on (its console quiet) and ends: report of its directory
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = f.Write(b)
		f.Close()
	}
	if lr.pollTraces(t0.Add(32 * time.Second)); !lr.stale {
		t.Error("the traces grew while the console was quiet: the live analysis should be rebuilt")
	}
	if err := os.WriteFile(filepath.Join(dir, "stderr.log"), stderr, 0o644); err != nil {
		t.Fatal(err)
	}
	code := 0
	done := *meta
	done.ExitCode, done.State = &code, runs.StateExited
	if err := runs.WriteMeta(dir, done); err != nil {
		t.Fatal(err)
	}
	l, err := report.Load([]string{dir}, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opened := triage.AnalyzeRun(l.Report, nil, nil, RunFactsOfDir(dir))
	live := mid.Analysis
	if !opened.RankAgreement.Agree || opened.Evidence.ProcessesText() == "torchrun job, no rank prefix" {
		t.Fatalf("the opened run: agreement %+v, processes %q", opened.RankAgreement, opened.Evidence.ProcessesText())
	}
	// mid-run the ranks are the stored run's; whether they agree is not said before the run ends (Live), and
	// nothing differs so far
	ra := live.RankAgreement
	if !maps.Equal(live.Report.PerRank, opened.Report.PerRank) || len(live.Report.PerRankUnknown) > 0 {
		t.Errorf("mid-run per rank: %+v, not known: %+v\nreport: %+v", live.Report.PerRank, live.Report.PerRankUnknown, opened.Report.PerRank)
	}
	if live.Evidence.ProcessesText() != opened.Evidence.ProcessesText() || !ra.Live || len(ra.SoFar) > 0 ||
		!strings.Contains(ra.Summary, "2 ranks (0,1)") || !strings.Contains(opened.RankAgreement.Summary, "2 ranks agree (0,1)") {
		t.Errorf("mid-run: %q (live %v, differ so far %v), %q\nreport: %q, %q", ra.Summary, ra.Live, ra.SoFar,
			live.Evidence.ProcessesText(), opened.RankAgreement.Summary, opened.Evidence.ProcessesText())
	}
}

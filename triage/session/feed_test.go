package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/runner"
	"github.com/torchtriage/torchtriage/triage/runs"
)

func recv(t *testing.T, f *feed, timeout time.Duration) (Batch, time.Time) {
	t.Helper()
	select {
	case b := <-f.out:
		return b, time.Now()
	case <-time.After(timeout):
		t.Fatal("no batch")
	}
	return Batch{}, time.Time{}
}

func newTestFeed(t testing.TB) *feed {
	set, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	f := newFeed(&Analyzer{Set: set})
	t.Cleanup(f.close)
	return f
}

func fixtureLines(t testing.TB, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, "torch-2.14", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(string(data), "\n")
}

func TestFeedBatchesAtMostEvery100ms(t *testing.T) {
	f := newTestFeed(t)
	lines := fixtureLines(t, "gb_recompile.triage.log")
	go func() {
		for _, l := range lines { // one event per line, about 2 ms apart
			f.sink(runner.Event{RunID: 7, Kind: runner.EventOutput, Stream: "stderr", Data: []byte(l)})
			time.Sleep(2 * time.Millisecond)
		}
		code := 0
		f.sink(runner.Event{RunID: 7, Kind: runner.EventExited, Meta: &runs.Meta{ID: 7, ExitCode: &code, State: runs.StateExited}})
	}()
	var times []time.Time
	var last Batch
	for !last.Final {
		var at time.Time
		last, at = recv(t, f, 5*time.Second)
		if last.RunID != 7 {
			t.Fatalf("batch of run %d, want 7", last.RunID)
		}
		times = append(times, at)
	}
	if n := len(lines); len(times) > n/10 {
		t.Errorf("%d events became %d messages: not batched", n, len(times))
	}
	for i := 1; i < len(times); i++ {
		if d := times[i].Sub(times[i-1]); d < 90*time.Millisecond {
			t.Errorf("batches %d and %d only %v apart", i-1, i, d)
		}
	}
	if last.Analysis == nil || last.Analysis.Report.Counts.GraphBreaks != 3 || last.Log.Len() != len(lines)-1 {
		t.Fatalf("final batch: analysis %v, %d log lines (want %d)", last.Analysis != nil, last.Log.Len(), len(lines)-1)
	}
}

func TestFeedShowsARecordWithin200msOfItsOutput(t *testing.T) {
	f := newTestFeed(t)
	// the first record of the fixture: a full graph-break record (23 lines), then nothing more: it is complete only
	// once the stream was idle
	record := strings.Join(fixtureLines(t, "gb_recompile.triage.log")[:23], "")
	start := time.Now()
	f.sink(runner.Event{RunID: 1, Kind: runner.EventOutput, Stream: "stderr", Data: []byte(record)})
	for {
		b, at := recv(t, f, 2*time.Second)
		if b.Analysis != nil && b.Analysis.Report.Counts.GraphBreaks == 1 {
			t.Logf("record on screen %v after its output", at.Sub(start))
			if d := at.Sub(start); d > 200*time.Millisecond {
				t.Errorf("the record appeared %v after its output; with the runner's 50 ms tail that exceeds 250 ms", d)
			}
			return
		}
	}
}

func TestFeedKeepsRunsApart(t *testing.T) {
	f := newTestFeed(t)
	f.sink(runner.Event{RunID: 1, Kind: runner.EventOutput, Stream: "stdout", Data: []byte("one\npartial")})
	f.sink(runner.Event{RunID: 2, Kind: runner.EventOutput, Stream: "stdout", Data: []byte("two\n")})
	f.sink(runner.Event{RunID: 1, Kind: runner.EventOutput, Stream: "stdout", Data: []byte(" line\n")})
	got := map[int][]string{}
	deadline := time.After(3 * time.Second)
	for len(got[1]) < 2 || len(got[2]) < 1 {
		select {
		case b := <-f.out:
			got[b.RunID] = nil
			for _, l := range b.Log.Lines(0, b.Log.Len()) {
				got[b.RunID] = append(got[b.RunID], l.Text)
			}
		case <-deadline:
			t.Fatalf("got %v", got)
		}
	}
	if strings.Join(got[1], "|") != "one|partial line" || strings.Join(got[2], "|") != "two" {
		t.Fatalf("runs mixed up: %v", got)
	}
}

// A run is analysed with its own TORCH_LOGS while it runs, not only once it exited: before, until the first
// record of a kind printed, its verdict said "nothing shows that graph breaks and recompiles were being logged
// (… TORCH_LOGS did not ask for them): rerun with --preset breaks" of a run started with exactly that preset.
func TestFeedKnowsTheRunsTorchLogsWhileItRuns(t *testing.T) {
	f := newTestFeed(t)
	f.started(runs.Meta{ID: 3, TorchLogs: "graph_breaks,recompiles", State: runs.StateRunning})
	// torchrun's warning: torch output, no record of a break or a recompile yet
	line := "W1121 08:31:21.367000 6129 torch/distributed/run.py:982] *****************************************\n"
	f.sink(runner.Event{RunID: 3, Kind: runner.EventOutput, Stream: "stderr", Data: []byte(line)})
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		b, _ := recv(t, f, 5*time.Second)
		if b.Analysis == nil {
			continue
		}
		ev := b.Analysis.Evidence
		if !ev.TorchSeen {
			continue // the line not parsed yet
		}
		if !ev.GraphBreaksLogged || !ev.RecompilesLogged || ev.LogsFrom != "run" || strings.Contains(b.Analysis.Verdict.Summary, "did not ask") {
			t.Fatalf("running: evidence %+v, verdict %q", ev, b.Analysis.Verdict.Summary)
		}
		if b.Final || b.Meta == nil || b.Meta.TorchLogs != "graph_breaks,recompiles" {
			t.Fatalf("batch final %v meta %+v", b.Final, b.Meta)
		}
		return
	}
	t.Fatal("no analysis of the running run")
}

// A run that ended before the session told the feed its start gets no batch after its final one (the stale
// running meta would have replaced its final meta).
func TestFeedDropsAStartAfterTheEnd(t *testing.T) {
	f := newTestFeed(t)
	code := 0
	f.sink(runner.Event{RunID: 4, Kind: runner.EventExited, Meta: &runs.Meta{ID: 4, ExitCode: &code, State: runs.StateExited}})
	if b, _ := recv(t, f, 5*time.Second); !b.Final {
		t.Fatalf("first batch not final: %+v", b)
	}
	f.started(runs.Meta{ID: 4, State: runs.StateRunning})
	select {
	case b := <-f.out:
		t.Fatalf("a batch after the final one: %+v (meta %+v)", b, b.Meta)
	case <-time.After(400 * time.Millisecond):
	}
}

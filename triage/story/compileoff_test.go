package story

import (
	"bytes"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/text"
)

// A run of the same command whose program turned torch.compile off (the probe saw TORCHDYNAMO_DISABLE=1) compiled
// nothing: it fixed no break and is no base or point of the trend (the log read "fixed: print() …" against the
// run before).
func TestCompileOffRunFixesNothing(t *testing.T) {
	store := t.TempDir()
	user := []string{"python", "repro.py"}
	zero := 0
	storyRun(t, store, runs.Meta{ID: 1, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: user,
		State: runs.StateExited, ExitCode: &zero}, nil, "torch-2.14/gb_recompile.triage.log")
	off := `{"rank": 0, "rank_source": "default", "pid": 100, "torch": "2.14.1", "python": "3.14", "cuda": "",
		"counters": {}, "config": {}, "env": {"TORCHDYNAMO_DISABLE": "1", "TORCH_LOGS": "graph_breaks,recompiles"}}`
	storyRun(t, store, runs.Meta{ID: 2, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: user,
		State: runs.StateExited, ExitCode: &zero}, nil, "-", off)
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Runs[1]
	if r.Delta != nil && len(r.Delta.Fixed) > 0 {
		t.Errorf("the compile-off run fixed %d items against run 1", len(r.Delta.Fixed))
	}
	if breaks, _ := s.Sparkline(); breaks[1] != -1 {
		t.Errorf("trend point of the compile-off run: %d, want none", breaks[1])
	}
	var b bytes.Buffer
	WriteText(&b, s, text.Options{Width: 200})
	run2 := b.String()[strings.Index(b.String(), "Run 2"):]
	if strings.Contains(run2, "0 graph breaks") || !strings.Contains(run2, "nothing compiled (torch.compile off: TORCHDYNAMO_DISABLE=1)") {
		t.Errorf("log text of the compile-off run:\n%s", run2)
	}
}

// A run of the same command that did not complete, showing none of the breaks its base had, is not "no change":
// what it never reached is not compared (the log read "no change in graph breaks, …" for 2 breaks → 0).
func TestDeltaOfACutRunIsNotNoChange(t *testing.T) {
	store := t.TempDir()
	user := []string{"python", "repro.py"}
	zero, one := 0, 1
	storyRun(t, store, runs.Meta{ID: 1, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: user,
		State: runs.StateExited, ExitCode: &zero}, nil, "torch-2.14/gb_recompile.triage.log")
	compiled := `{"rank": 0, "rank_source": "default", "pid": 100, "torch": "2.14.1", "python": "3.14", "cuda": "",
		"counters": {"frames": {"total": 1, "ok": 1}, "stats": {"unique_graphs": 1}}, "config": {}, "env": {}}`
	storyRun(t, store, runs.Meta{ID: 2, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: user,
		State: runs.StateExited, ExitCode: &one}, nil, "-", compiled)
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteText(&b, s, text.Options{Width: 300})
	run2 := b.String()[strings.Index(b.String(), "Run 2"):]
	if strings.Contains(run2, "no change in") || !strings.Contains(run2, "nothing new or more") {
		t.Errorf("log text of the cut run:\n%s", run2)
	}
}

// Two runs of one process with nothing changed say nothing of rank agreement, which one process never has (an
// exploratory live run: "no change in graph breaks, recompile classes, limit hits, skips, errors or rank
// agreement" of two single-process runs).
func TestNoChangeOfOneProcessSaysNoRanks(t *testing.T) {
	store := t.TempDir()
	user := []string{"python", "repro.py"}
	zero := 0
	for id := 1; id <= 2; id++ {
		storyRun(t, store, runs.Meta{ID: id, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: user,
			State: runs.StateExited, ExitCode: &zero}, nil, "torch-2.14/gb_recompile.triage.log")
	}
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteText(&b, s, text.Options{Width: 300})
	run2 := b.String()[strings.Index(b.String(), "Run 2"):]
	if !strings.Contains(run2, "no change in graph breaks") || strings.Contains(run2, "rank agreement") {
		t.Errorf("log text:\n%s", run2)
	}
}

package story

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/text"
)

// The log prints the command exactly as it ran (torchrun's per-run port included, shell-quoted); comparing two
// runs still ignores the port. A demo run says it is one.
func TestLogPrintsTheExactCommandAndMarksDemoRuns(t *testing.T) {
	store := t.TempDir()
	exit0 := 0
	at := time.Date(2026, 3, 2, 14, 0, 0, 0, time.UTC)
	argv := func(port string) []string {
		return []string{"torchrun", "--nproc-per-node", "2", "--tee", "3", "--master-port", port, "repro.py", "--msg", "it's a b"}
	}
	storyRun(t, store, runs.Meta{ID: 1, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: []string{"repro.py"},
		Argv: argv("29500"), Nproc: 2, Cwd: "/home/dev", Start: at, State: runs.StateExited, ExitCode: &exit0},
		nil, "torch-2.14/r05_dist_c10d.triage.log")
	storyRun(t, store, runs.Meta{ID: 2, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: []string{"repro.py"},
		Argv: argv("29611"), Nproc: 2, Cwd: "/home/dev", Start: at.Add(time.Minute), State: runs.StateExited, ExitCode: &exit0},
		nil, "torch-2.14/r05_dist_c10d.triage.log")
	storyRun(t, store, runs.Meta{ID: 3, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", Demo: "r05_dist_c10d",
		UserArgv: []string{"/usr/bin/torchtriage", "__demo-repro", "--scenario", "r05_dist_c10d"},
		Argv:     []string{"/usr/bin/torchtriage", "__demo-repro", "--scenario", "r05_dist_c10d"},
		Cwd:      "/home/dev", Start: at.Add(2 * time.Minute), State: runs.StateExited, ExitCode: &exit0},
		nil, "torch-2.14/r05_dist_c10d.triage.log")
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	exact := `torchrun --nproc-per-node 2 --tee 3 --master-port 29611 repro.py --msg 'it'\''s a b'`
	if s.Runs[1].Command != exact {
		t.Errorf("command %q, want %q", s.Runs[1].Command, exact)
	}
	if d := s.Runs[1].Delta; d == nil || d.Basis != "same command" || len(s.Runs[1].Changes) != 0 {
		t.Errorf("runs 1 and 2 differ only in the port: delta %+v changes %+v", d, s.Runs[1].Changes)
	}
	var txt, md bytes.Buffer
	WriteText(&txt, s, text.Options{Width: 200})
	WriteMarkdown(&md, s)
	if !strings.Contains(txt.String(), "  $ "+exact+"\n") || !strings.Contains(md.String(), "```sh\n"+exact+"\n```") {
		t.Errorf("the printed command is not the one that ran:\n%s", txt.String())
	}
	if strings.Count(txt.String(), "demo · r05_dist_c10d") != 1 || strings.Count(md.String(), `demo · r05\_dist\_c10d`) != 1 {
		t.Errorf("want the demo run (and only it) marked demo · r05_dist_c10d:\n%s\n%s", txt.String(), md.String())
	}
	if s.Runs[2].Demo != "r05_dist_c10d" || s.Runs[0].Demo != "" {
		t.Errorf("demo flags %v %v", s.Runs[2].Demo, s.Runs[0].Demo)
	}
}

// The runs of one ladder are one experiment: each run's heading names it and the run's tier, in text and Markdown.
func TestLogGroupsALaddersRuns(t *testing.T) {
	store := t.TempDir()
	exit0, exit1 := 0, 1
	at := time.Date(2026, 12, 7, 21, 12, 18, 0, time.UTC)
	for i, b := range []string{"eager", "inductor"} {
		code := &exit0
		if b == "inductor" {
			code = &exit1
		}
		storyRun(t, store, runs.Meta{ID: i + 1, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: []string{"python3", "x.py"},
			Argv: []string{"python3", "x.py"}, Cwd: "/home/dev", Start: at.Add(time.Duration(i) * time.Minute), State: runs.StateExited,
			ExitCode: code, Env: map[string]string{"TORCHTRIAGE_BACKEND": b},
			Experiment: &runs.Experiment{ID: "ladder-20261207-211218", Kind: "ladder", Step: b}}, nil, "torch-2.14/gb_recompile.triage.log")
	}
	storyRun(t, store, runs.Meta{ID: 3, Preset: "breaks", TorchLogs: "graph_breaks,recompiles", UserArgv: []string{"python3", "x.py"},
		Argv: []string{"python3", "x.py"}, Cwd: "/home/dev", Start: at.Add(3 * time.Minute), State: runs.StateExited, ExitCode: &exit0},
		nil, "torch-2.14/gb_recompile.triage.log")
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	var txt, md bytes.Buffer
	WriteText(&txt, s, text.Options{Width: 200})
	WriteMarkdown(&md, s)
	for _, out := range []string{txt.String(), md.String()} {
		if strings.Count(out, "ladder-20261207-211218 · ") != 2 || !strings.Contains(out, "ladder-20261207-211218 · eager") ||
			!strings.Contains(out, "ladder-20261207-211218 · inductor") {
			t.Errorf("want the two ladder runs (and only them) headed by their experiment and tier:\n%s", out)
		}
	}
	if s.Runs[0].Experiment == nil || s.Runs[2].Experiment != nil {
		t.Errorf("experiments %+v %+v", s.Runs[0].Experiment, s.Runs[2].Experiment)
	}
}

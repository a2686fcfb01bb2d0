package story

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/text"
)

// The bringup log counts what the report counts: a run that exited 0 after its program caught torch.compile's
// exception (testdata/recorded/caught-compile, real 2.6) had no process die of it, and the log read "1 compile
// error" beside the report's "compile errors 0 (1 caught)".
func TestStoryCountsACaughtCompileErrorAsTheReportDoes(t *testing.T) {
	s, err := Build(filepath.Join("..", "..", "testdata", "recorded", "caught-compile", "runs"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 1 || s.Runs[0].Counts == nil {
		t.Fatalf("runs %+v", s.Runs)
	}
	if c := s.Runs[0].Counts; c.CompileErrors != 0 || c.CompileErrorsCaught != 1 {
		t.Errorf("counts %+v", c)
	}
	var txt, md bytes.Buffer
	WriteText(&txt, s, text.Options{Width: 200})
	WriteMarkdown(&md, s)
	if !strings.Contains(txt.String(), "0 compile errors (1 caught)") || strings.Contains(txt.String(), "· 1 compile error") {
		t.Errorf("text:\n%s", txt.String())
	}
	if !strings.Contains(md.String(), "| 0 (1 caught) |") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

// What the bringup log counts as logged is what the report does (one rule, triage's evidence): records of a kind
// prove it was logged whatever the run's TORCH_LOGS said. A run stored with TORCH_LOGS guards,recompiles_verbose
// whose log holds graph-break records read "graph breaks not logged" in the log beside the report's "3
// distinct". (A script's own torch._logging.set_logs is no way there: under TORCH_LOGS torch 2.6 ignores it,
// "Using TORCH_LOGS environment variable for log settings, ignoring call to set_logs".)
func TestStoryLoggedIsTheReportsEvidence(t *testing.T) {
	s, txt := exitedRuns(t, [2]string{"guards", "guards,recompiles_verbose"})
	r := s.Runs[0]
	if !r.Logged.GraphBreaks || r.Logged.GraphBreaks != r.Analysis().Evidence.GraphBreaksLogged {
		t.Errorf("logged %+v, the report's evidence: breaks %v", r.Logged, r.Analysis().Evidence.GraphBreaksLogged)
	}
	if strings.Contains(txt, "graph breaks not logged") || !strings.Contains(txt, "3 graph breaks") {
		t.Errorf("text:\n%s", txt)
	}
}

// A run whose TORCH_LOGS was not its preset's (check --logs …; the run dir is NNNN-custom) says so in its heading:
// "preset breaks" alone read as if the breaks preset's names had been on.
func TestStoryHeadNamesCustomLogs(t *testing.T) {
	_, txt := exitedRuns(t, [2]string{"breaks", "graph_breaks,recompiles,+dynamo"}, [2]string{"breaks", "graph_breaks,recompiles"})
	if !strings.Contains(txt, "preset breaks (TORCH_LOGS graph_breaks,recompiles,+dynamo)") {
		t.Errorf("run 1:\n%s", txt)
	}
	if strings.Count(txt, "(TORCH_LOGS ") != 1 {
		t.Errorf("run 2 ran its preset's names:\n%s", txt)
	}
}

// exitedRuns stores runs of python repro.py that exited 0 with gb_recompile's log, each {preset, TORCH_LOGS},
// and returns their story and its text.
func exitedRuns(t *testing.T, presets ...[2]string) (*Story, string) {
	t.Helper()
	store := t.TempDir()
	code := 0
	for i, r := range presets {
		storyRun(t, store, runs.Meta{ID: i + 1, Preset: r[0], TorchLogs: r[1], UserArgv: []string{"python", "repro.py"},
			State: runs.StateExited, ExitCode: &code}, nil, "torch-2.14/gb_recompile.triage.log")
	}
	s, err := Build(store)
	if err != nil {
		t.Fatal(err)
	}
	var txt bytes.Buffer
	WriteText(&txt, s, text.Options{Width: 200})
	return s, txt.String()
}

// Runs of different scripts make no trend: the H100 session of g01 then g09b read "trend: graph breaks 0 → 1 ·
// recompiles 0 → 3", a regression of nothing. Their counts are listed per run, saying they come from different
// scripts; runs of one script keep their "trend".
func TestStoryTrendOfDifferentScripts(t *testing.T) {
	s, err := Build(filepath.Join("..", "..", "testdata", "gpu-e2e", "e2e-20261126"))
	if err != nil {
		t.Fatal(err)
	}
	var txt, md bytes.Buffer
	WriteText(&txt, s, text.Options{Width: 200})
	WriteMarkdown(&md, s)
	if strings.Contains(txt.String(), "trend:") || !strings.Contains(txt.String(), "per run (2 scripts, not one trend): graph breaks 0 → 1") {
		t.Errorf("text:\n%s", txt.String())
	}
	if strings.Contains(md.String(), "**Trend:**") || !strings.Contains(md.String(), "**Per run** (2 scripts, not one trend):") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

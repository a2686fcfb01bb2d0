package triage_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// A torch.compile failure that the program caught, logged and went on after (real 2.6 output: fullgraph=True
// refused a graph_break(); testdata/recorded/caught-compile) killed no process, so it is no compile error in the
// counts, and `check --no-compile-errors` (no process died of an exception) passes; but compile failed for the
// frame, and the report read "Findings (0) none". Now it is a finding (with the error's playbook), the verdict
// names it, and every count of compile errors says "(1 caught)", the gate's counted line too.
func TestCaughtCompileFailureIsNamed(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, filepath.Join("..", "testdata", "recorded", "caught-compile", "caught_went_on.triage.log")), nil, nil)
	checkCaughtCompile(t, "logs alone", a)
}

// A run that exited 0 had no process die, whatever its streams show: the caught_quiet repro logged the traceback
// last on stderr (no line after it shows the process went on), and the report said "First failure: the process
// failed: torch._dynamo.exc.Unsupported" and "1 process died of a compile error" of a run that exited 0.
func TestRunThatExitedZeroHadNoFatalError(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "caught-compile", "runs", "0001-breaks")
	rep := triage.LoadReport(t, filepath.Join(dir, "stderr.log"), filepath.Join(dir, "stdout.log"))
	if rep.Counts.CompileErrors != 1 {
		t.Fatalf("the test wants the stream rules to read a fatal compile error: %+v", rep.Counts)
	}
	code := 0
	run := &report.RunFacts{Outcome: report.OutcomeCompleted, ExitCode: &code, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true, Direct: true}
	a := triage.AnalyzeRun(rep, nil, nil, run)
	checkCaughtCompile(t, "run that exited 0", a)
	if a.Unfinished() != "" {
		t.Errorf("unfinished: %s", a.Unfinished())
	}
	if rep.Counts.CompileErrors != 1 {
		t.Errorf("the report analysed was changed: %+v", rep.Counts)
	}
	// the same streams without the exit code (logs alone) keep their fatal error: nothing says the process lived;
	// nor does the exit 0 of a wrapper (sh -c "python x.py; echo done"), which is not python's
	if a := triage.Analyze(rep, nil, nil); a.Report.Counts.CompileErrors != 1 || a.Report.FirstFailure == nil {
		t.Errorf("logs alone: %+v", a.Report.Counts)
	}
	wrapped := *run
	wrapped.Direct = false
	if a := triage.AnalyzeRun(rep, nil, nil, &wrapped); a.Report.Counts.CompileErrors != 1 || a.Report.FirstFailure == nil {
		t.Errorf("a wrapper's exit 0: %+v", a.Report.Counts)
	}
}

func checkCaughtCompile(t *testing.T, name string, a *triage.Analysis) {
	t.Helper()
	c := a.Report.Counts
	if c.CompileErrors != 0 || c.RuntimeErrors != 0 || a.Report.FirstFailure != nil {
		t.Errorf("%s: counts %+v, first failure %v", name, c, a.Report.FirstFailure)
	}
	var caught *findings.Finding
	for i := range a.Findings {
		if f := &a.Findings[i]; f.Kind == findings.KindCompileError {
			caught = f
		}
	}
	if caught == nil || !caught.Caught || caught.Playbook != "err-fullgraph-unsupported" || !strings.Contains(caught.Title, "caught by the program") {
		t.Fatalf("%s: finding %+v", name, caught)
	}
	// fullgraph refused a graph break: the checklist's breaks step has it to fix, caught or not
	if a.State().UnexpectedBreaks != 1 {
		t.Errorf("%s: checklist state %+v", name, a.State())
	}
	if v := a.Verdict; v.State != triage.StateNotSteady || !strings.Contains(v.Summary, "1 compile error caught by the program") {
		t.Errorf("%s: verdict %s: %s", name, v.State, v.Summary)
	}
	var txt, md strings.Builder
	render.WriteReportText(&txt, a, text.Options{Width: 200})
	render.WriteMarkdown(&md, a)
	for what, s := range map[string]string{"text": txt.String(), "markdown": md.String()} {
		if strings.Contains(s, "the process failed") || strings.Contains(s, "died of a") || strings.Contains(s, "not a failure") {
			t.Errorf("%s %s:\n%s", name, what, s)
		}
	}
	if !strings.Contains(txt.String(), "compile errors 0 (1 caught)") || !strings.Contains(md.String(), "| 0 (1 caught) |") {
		t.Errorf("%s: counts:\n%s\n%s", name, txt.String(), md.String())
	}
	res := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileErrors: true})
	if !res.Passed || len(res.Failures) != 0 {
		t.Errorf("%s: gate %+v", name, res)
	}
	if s := gate.Summary(res); !strings.Contains(s, "0 compile errors (1 caught)") || res.Counts.CompileErrorsCaught != 1 {
		t.Errorf("%s: gate summary %s, counts %+v", name, s, res.Counts)
	}
}

// While its one process still runs, no process of the run has died: the TUI said "fix the crash first: 1 process
// died of a compile error" for the whole of a live run whose program had printed a caught BackendCompilerFailed
// (traceback.print_exc()) and gone on. Several ranks are another matter: one may have died while the others run.
func TestRunningProcessHasNotDied(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "caught-compile", "runs", "0001-breaks")
	rep := triage.LoadReport(t, filepath.Join(dir, "stderr.log"))
	run := &report.RunFacts{Outcome: report.OutcomeRunning, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true, Direct: true}
	a := triage.AnalyzeRun(rep, nil, nil, run)
	if a.State().Crash != "" || a.Report.FirstFailure != nil || a.Report.Counts.CompileErrors != 0 || a.CaughtCompileErrors() != 1 {
		t.Errorf("running: crash %q, first failure %v, counts %+v", a.State().Crash, a.Report.FirstFailure, a.Report.Counts)
	}
	torchrun := *run
	torchrun.WorldSize = 2
	if a := triage.AnalyzeRun(rep, nil, nil, &torchrun); a.Report.Counts.CompileErrors != 1 {
		t.Errorf("a running torchrun job: %+v", a.Report.Counts)
	}
}

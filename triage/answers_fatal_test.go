package triage_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

func answersLog(v, name string) string {
	return filepath.Join("..", "testdata", "answers", "torch-"+v, name+".triage.log")
}

func findingOf(t *testing.T, a *triage.Analysis, kind findings.Kind) *findings.Finding {
	t.Helper()
	fs := triage.FindingsOf(a, kind)
	if len(fs) != 1 {
		t.Fatalf("%d %s findings, want 1: %+v", len(fs), kind, fs)
	}
	return &fs[0]
}

// suppress_errors and a backend that raises (real 2.14.1 and 2.6.0): Dynamo logs WON'T CONVERT and runs f eager on
// every call. It was no finding at all and the verdict "no evidence"; it is a high finding saying so, with the
// backend failure's playbook. A recompile-limit hit's own WON'T CONVERT (gb_recompile's dynamo_info logs) stays the
// limit's: no error finding of its own.
func TestWontConvertIsAFinding(t *testing.T) {
	for _, v := range []string{"2.14", "2.6"} {
		a := triagetest.ReportPaths(t, answersLog(v, "f03_wont_convert"))
		f := findingOf(t, a, findings.KindCompileError)
		if !f.Suppressed || f.Severity != "high" || f.Playbook != "err-backend-ablation" || f.Function != "" && f.Function != "f" ||
			!strings.HasPrefix(f.Title, "f never compiles: Dynamo gave up on it (WON'T CONVERT) and runs it eager on every call") ||
			!strings.Contains(f.Why, "suppress_errors") {
			t.Errorf("%s: %+v", v, f)
		}
		if a.Verdict.State == "no_evidence" || !strings.Contains(a.Verdict.Summary, "Dynamo gave up on") {
			t.Errorf("%s: verdict %s %q", v, a.Verdict.State, a.Verdict.Summary)
		}
		if a.Report.Counts.CompileErrors != 0 { // no process died of it (fixtures/README.md's counting rule)
			t.Errorf("%s: %d compile errors counted", v, a.Report.Counts.CompileErrors)
		}
	}
	for _, v := range []string{"2.14", "2.6"} {
		a := triage.Analyze(triage.LoadReport(t, Fx("torch-"+v+"/gb_recompile.dynamo_info.log")), nil, nil)
		if fs := triage.FindingsOf(a, findings.KindCompileError); len(fs) != 0 {
			t.Errorf("%s: the limit's WON'T CONVERT made %+v", v, fs)
		}
	}
}

// error_on_recompile (real runs): the RecompileError ended the run at the first recompile. The recompile read
// "expected once if automatic dynamic is on" (dynamic=False: it was not); it is the fatal one, counted against
// the gate, and the error names the setting and the guard that failed. The stance's RuntimeError names the stance
// and gets the fail-on-recompile playbook (was generic), saying the log shows no guard.
func TestFatalRecompiles(t *testing.T) {
	for _, v := range []string{"2.14", "2.6"} {
		a := triagetest.ReportPaths(t, answersLog(v, "f01_error_on_recompile"))
		r, e := findingOf(t, a, findings.KindRecompile), findingOf(t, a, findings.KindCompileError)
		if r.Expected || r.Unexpected() != 1 || r.Severity != "high" ||
			r.Title != "f's recompile was fatal: torch._dynamo.config.error_on_recompile raised at it — size mismatch x[0] 4→8" {
			t.Errorf("%s recompile: %+v", v, r)
		}
		if e.Playbook != "err-fail-on-recompile" || !strings.HasPrefix(e.Title, "a recompile made fatal by torch._dynamo.config.error_on_recompile:") ||
			!strings.HasSuffix(e.Title, "— the guard that failed: size mismatch x[0] 4→8") {
			t.Errorf("%s error: %q %s", v, e.Title, e.Playbook)
		}
		s := triagetest.ReportPaths(t, answersLog(v, "f02_fail_on_recompile_stance"))
		re := findingOf(t, s, findings.KindRuntimeError)
		if re.Playbook != "err-fail-on-recompile" || !strings.HasPrefix(re.Title, `a recompile made fatal by set_stance("fail_on_recompile"):`) ||
			!strings.Contains(re.Detail, "shows in the log (the setting raised before the recompile's guards were logged") {
			t.Errorf("%s stance: %q %s\n%s", v, re.Title, re.Playbook, re.Detail)
		}
	}
}

// fullgraph=True and a print (real runs): the finding's own why says nothing resumes, in the place of the print
// playbook's (which describes the split without fullgraph); JSON carries it. The title no longer guesses
// "Unsupported under fullgraph" unlabelled: error_on_graph_break raises it too.
func TestFullgraphErrorSaysNothingResumes(t *testing.T) {
	a := triagetest.ReportPaths(t, answersLog("2.14", "f07_error_on_graph_break"))
	e := findingOf(t, a, findings.KindCompileError)
	if e.Playbook != "gb-print" || !strings.Contains(e.Why, "nothing resumes after the break") ||
		strings.Contains(e.Title, "Unsupported under fullgraph") || !strings.HasPrefix(e.Title, "graph break made an error (fullgraph=True or error_on_graph_break)") {
		t.Errorf("%q why %q (%s)", e.Title, e.Why, e.Playbook)
	}
	var rep struct {
		Findings []struct {
			Why string `json:"why"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(triagetest.ReportJSON(t, answersLog("2.14", "f07_error_on_graph_break"))), &rep); err != nil ||
		len(rep.Findings) == 0 || rep.Findings[0].Why != e.Why {
		t.Errorf("JSON why: %+v %v", rep, err)
	}
}

// torch.compile(recompile_limit=2) on 2.14.1 (real run): the hit names which limit (2, not the default 8) and where
// to raise it — this call's recompile_limit or the config.
func TestLimitHitNamesWhichLimit(t *testing.T) {
	a := triagetest.ReportPaths(t, answersLog("2.14", "f05_per_call_limit"))
	l := findingOf(t, a, findings.KindLimitHit)
	if l.Title != "f hit config.recompile_limit (2, not the default 8): after this the frame runs eager" ||
		!strings.Contains(l.Detail, "this call's torch.compile(..., recompile_limit=2) (2.14+: the N is per torch.compile call)") {
		t.Errorf("%q\n%s", l.Title, l.Detail)
	}
}

// Runtime errors whose cause the message shows (real runs, and the documented guard-crash line pasted): they name
// it, with its own playbook, instead of the generic one.
func TestRuntimeErrorCauses(t *testing.T) {
	for _, c := range []struct{ path, playbook, title string }{
		{answersLog("2.14", "e02_cpu_oom_absurd"), "mem-cpu-alloc", "an absurd CPU allocation (58.2 TiB asked"},
		{answersLog("2.6", "e02_cpu_oom_absurd"), "mem-cpu-alloc", "an absurd CPU allocation (58.2 TiB asked"},
		{filepath.Join("..", "testdata", "answers", "synthetic", "synthetic_guard_check_failed.log"), "err-guard-check-crash",
			"a guard crashed while torch evaluated it (a torch bug, not a recompile)"},
		{Fx("torch-2.11-cuda/g14_cuda_oom.triage.log"), "gpu-cuda-oom", "a CUDA allocation larger than the whole GPU (200.00 GiB asked, 79.18 GiB total)"},
		{filepath.Join("..", "testdata", "dist-hangs", "torch-2.14", "h04_rank_crash.plain.log"), "err-program-exception", "the program's own error: ValueError"},
	} {
		a := triagetest.ReportPaths(t, c.path)
		e := a.Findings[0] // the headline: h04's first failure, before rank 0's lost peer
		if e.Kind != findings.KindRuntimeError || e.Playbook != c.playbook || !strings.HasPrefix(e.Title, c.title) {
			t.Errorf("%s: %s %s %q", c.path, e.Kind, e.Playbook, e.Title)
		}
		if a.Report.Counts.Recompiles != 0 && strings.Contains(c.path, "guard_check") {
			t.Errorf("%s: a guard crash counted as a recompile", c.path)
		}
	}
}

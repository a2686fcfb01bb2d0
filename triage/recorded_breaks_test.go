package triage_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/report"
)

// torch 2.6 words a call to a torch.compiler.disable()'d function "call torch._dynamo.disable() wrapped function
// <function helper at 0x…>" (real recording, testdata/recorded/compiler-disable): a break the user asked for. It
// got the generic playbook and "consider", and failed the gate as a break to fix.
func TestCompilerDisableOf26IsByDesign(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, filepath.Join("..", "testdata", "recorded", "compiler-disable", "compiler_disable.triage.log")), nil, nil)
	fs := triage.FindingsOf(a, findings.KindGraphBreak)
	if len(fs) != 1 || fs[0].Playbook != "expected-compiler-disable" || !fs[0].Expected {
		t.Fatalf("findings %+v", fs)
	}
	// no break to fix: the verdict rests on what was not shown (no recompile printed, logs alone), not on the break
	if v := a.Verdict; v.State != triage.StateNoEvidence || len(v.Reasons) != 0 || strings.Contains(v.Summary, "graph break to fix") {
		t.Errorf("verdict %s: %s %q", v.State, v.Summary, v.Reasons)
	}
	if res := gate.Check(a, gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}); len(res.Failures) != 0 {
		t.Errorf("gate: %+v", res.Failures)
	}
}

// Dynamo's once-per-builtin Python warning ("…/torch/_dynamo/variables/functions.py:679: UserWarning: Graph break
// due to unsupported builtin time.time. …", real 2.6, testdata/recorded/builtin-breaks) is the same break as the
// graph_breaks record of that builtin: it was read as a seventh distinct break "at unknown site". Without
// graph_breaks it is the only sign of the break: a floor of 1, not "1 distinct" of a log whose breaks were logged.
func TestBuiltinWarningIsTheSameBreak(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "builtin-breaks")
	a := triage.Analyze(triage.LoadReport(t, filepath.Join(dir, "manybreaks.triage.log")), nil, nil)
	if c := a.Report.Counts; c.GraphBreaks != 6 || c.GraphBreakRecords != 6 {
		t.Errorf("logged: %d distinct, %d records, want 6, 6", c.GraphBreaks, c.GraphBreakRecords)
	}
	for _, f := range triage.FindingsOf(a, findings.KindGraphBreak) {
		if f.File == "" {
			t.Errorf("a break without a site: %q", f.Title)
		}
	}
	// 2.14 words it "Dynamo does not know how to trace the builtin `time.time.`", the record's explanation too
	if c := triage.Analyze(triage.LoadReport(t, filepath.Join(dir, "manybreaks.2.14.triage.log")), nil, nil).Report.Counts; c.GraphBreaks != 6 {
		t.Errorf("2.14 logged: %d distinct, want 6", c.GraphBreaks)
	}
	a14 := triage.Analyze(triage.LoadReport(t, filepath.Join(dir, "manybreaks.2.14.no_torch_logs.log")), nil, nil)
	if got := a14.BreaksText(); got != "graph breaks at least 1 distinct (1 record; graph_breaks not logged)" {
		t.Errorf("2.14 not logged: %q", got)
	}
	a = triage.Analyze(triage.LoadReport(t, filepath.Join(dir, "manybreaks.no_torch_logs.log")), nil, nil)
	if c := a.Report.Counts; c.GraphBreaks != 1 || a.Evidence.GraphBreaksLogged || !a.BreaksFloor() {
		t.Errorf("not logged: %+v, logged %v", c, a.Evidence.GraphBreaksLogged)
	}
	if got := a.BreaksText(); got != "graph breaks at least 1 distinct (1 record; graph_breaks not logged)" {
		t.Errorf("not logged: %q", got)
	}
	fs := triage.FindingsOf(a, findings.KindGraphBreak)
	if len(fs) != 1 || fs[0].Playbook != "gb-skipped-function" || !strings.Contains(fs[0].Title, "time.time") {
		t.Errorf("not logged: findings %+v", fs)
	}
}

// A guard on an attribute's identity is no argument "passed": ___check_obj_id(L['self'].flag, …) read "a
// different object passed as self.flag" (real 2.6 run; an argument still reads "passed as fn").
func TestObjectIdentityOfAnAttribute(t *testing.T) {
	if got := findings.DescribeClass(guard.Class{Class: "obj_id", Source: "self.flag"}, 1); got != "a different object in self.flag" {
		t.Errorf("attribute: %q", got)
	}
	if got := findings.DescribeClass(guard.Class{Class: "obj_id", Source: "fn"}, 1); got != "a different object passed as fn" {
		t.Errorf("argument: %q", got)
	}
}

// Pasted as people paste logs (a Markdown quote, a code block's indentation; pasted-logs.md §2), Dynamo's warning
// about a builtin is still the same break as its record: the indented paste counted 7 distinct breaks for 6.
func TestBuiltinWarningPasted(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "recorded", "builtin-breaks", "manybreaks.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	for name, prefix := range map[string]string{"quoted": "> ", "indented": "    "} {
		var b strings.Builder
		for _, l := range strings.SplitAfter(string(data), "\n") {
			if l != "" {
				b.WriteString(prefix + l)
			}
		}
		path := filepath.Join(t.TempDir(), name+".log")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if c := triage.Analyze(triage.LoadReport(t, path), nil, nil).Report.Counts; c.GraphBreaks != 6 {
			t.Errorf("%s: %d distinct breaks, want 6", name, c.GraphBreaks)
		}
	}
}

// Dynamo names the frame it resumes after a graph break torch_dynamo_resume_in_<fn>_at_<line>: a recompile (or a
// limit hit) of such a frame shows a break graph_breaks did not log. r01's guards log (guards,recompiles) recompiled
// torch_dynamo_resume_in_f_at_6 and read only "nothing shows that graph breaks were being logged".
func TestResumeFunctionShowsUnloggedBreak(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/r01_branch_print.guards.log")), nil, nil)
	if a.Evidence.GraphBreaksLogged {
		t.Fatal("the test wants a log without graph_breaks")
	}
	want := []report.ResumeBreak{{Function: "f", File: "/root/repro/r01_branch_print.py", Line: 6}}
	if got := a.Evidence.ResumeBreaks; len(got) != 1 || got[0].Function != "f" || got[0].Line != 6 || !strings.HasSuffix(got[0].File, "r01_branch_print.py") {
		t.Errorf("resume breaks %+v, want %+v", got, want)
	}
	if s := a.Verdict.Summary; !strings.Contains(s, "a resume function shows a graph break that was not logged: f at r01_branch_print.py:6") {
		t.Errorf("verdict %q", s)
	}
	if got := a.UncountedWhy(findings.KindGraphBreak); !strings.Contains(got, "a resume function shows one at r01_branch_print.py:6") {
		t.Errorf("pane %q", got)
	}
	// breaks that were logged need no such hint
	if a := triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/r01_branch_print.triage.log")), nil, nil); len(a.Evidence.ResumeBreaks) != 0 {
		t.Errorf("logged: %+v", a.Evidence.ResumeBreaks)
	}
}

// 2.14 prints an identity guard with the object's type after it ("___check_obj_id(fn, 140609853979072),
// type=<class 'builtin_function_or_method'>", a real 2.14.1 run): its source is fn, not "an argument".
func TestObjectIdentityGuardOf214(t *testing.T) {
	gc := guard.Classify("___check_obj_id(fn, 140609853979072), type=<class 'builtin_function_or_method'>")
	if gc.Class != "obj_id" || gc.Source != "fn" || findings.DescribeClass(gc, 1) != "a different object passed as fn" {
		t.Errorf("%+v: %q", gc, findings.DescribeClass(gc, 1))
	}
}

// torch 2.6 skips contextlib, so a @contextlib.contextmanager of the user's own is a break "skip function mine in
// file …/contextlib.py" and then a skipped frame (real 2.6, testdata/recorded/ctxmgr-26). The break got the
// generic playbook ("consider"); it is the context-manager one, and the skipped frame stays the unresumable one.
func TestContextManagerOf26(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, filepath.Join("..", "testdata", "recorded", "ctxmgr-26", "s4_ctxmgr-26.log")), nil, nil)
	var got []string
	for _, f := range triage.FindingsOf(a, findings.KindGraphBreak) {
		got = append(got, f.Playbook)
	}
	if strings.Join(got, " ") != "gb-unresumable-skip gb-context-manager" {
		t.Errorf("playbooks %q", got)
	}
}

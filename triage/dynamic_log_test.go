package triage_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/text"
)

func dynamicFalse(name string) string {
	return filepath.Join("..", "testdata", "recorded", "dynamic-false", name)
}

// recompileOf is the recompile finding of function fn.
func recompileOf(t *testing.T, a *triage.Analysis, fn string) *findings.Finding {
	t.Helper()
	for i := range a.Findings {
		if f := &a.Findings[i]; f.Kind == findings.KindRecompile && f.Function == fn {
			return f
		}
	}
	t.Fatalf("no recompile finding of %s among %d findings", fn, len(a.Findings))
	return nil
}

// Under torch.compile(dynamic=False) the first new size recompiles as automatic dynamic's does, but the
// recompiled graph keeps the dimension static and every further size compiles again. The recompile record
// cannot tell the two apart; the dynamic log can: the recompiled compile ([0/1]) made no symbol for x (real
// 2.14.1 and 2.6, testdata/recorded/dynamic-false). It read "automatic dynamic, expected once", INFO, expected.
func TestDynamicFalseSizeRecompileIsNotAutomaticDynamic(t *testing.T) {
	for _, log := range []string{"dynfalse-214.log", "dynfalse-26.log"} {
		a := triage.AnalyzeFile(t, dynamicFalse(log))
		f := recompileOf(t, a, "f")
		if f.Expected || f.Unexpected() != 1 || f.Severity == "info" || f.Category == findings.CategoryExpected {
			t.Errorf("%s: expected %v, %d unexpected, %s %s: %s", log, f.Expected, f.Unexpected(), f.Severity, f.Category, f.Title)
		}
		if strings.Contains(f.Title, "expected once") || !strings.Contains(f.Title, "kept it static") ||
			!strings.Contains(f.Title, "the dynamic log shows no symbol for x") || !strings.Contains(f.Title, "dynamic=False") {
			t.Errorf("%s: title %q", log, f.Title)
		}
		for _, c := range f.Classes {
			if c.Expected {
				t.Errorf("%s: class %s marked expected", log, c.Detail)
			}
		}
		if !strings.Contains(f.Detail, "Dynamic log: at 0/1 no symbol for x[0]") {
			t.Errorf("%s: detail\n%s", log, f.Detail)
		}
		if !strings.HasPrefix(a.Verdict.Summary, "no evidence") && !strings.Contains(a.Verdict.Summary, "recompile") {
			t.Errorf("%s: verdict %q", log, a.Verdict.Summary)
		}
		var buf bytes.Buffer
		if err := render.WriteReport(&buf, a, "json", text.Options{}); err != nil {
			t.Fatal(err)
		}
		var js struct {
			Findings []struct {
				Kind     string `json:"kind"`
				Title    string `json:"title"`
				Expected bool   `json:"expected"`
			} `json:"findings"`
		}
		if err := json.Unmarshal(buf.Bytes(), &js); err != nil {
			t.Fatal(err)
		}
		for _, jf := range js.Findings {
			if jf.Kind == string(findings.KindRecompile) && (jf.Expected || jf.Title != f.Title) {
				t.Errorf("%s: JSON finding %+v", log, jf)
			}
		}
	}
}

// Under the default the same recompile is automatic dynamic, and the dynamic log shows it: the recompiled compile
// made x's size a symbol. It stays expected once, and the detail says what the log showed.
func TestAutomaticDynamicConfirmedByDynamicLog(t *testing.T) {
	for _, log := range []string{"dynauto-214.log", "dynauto-26.log"} {
		a := triage.AnalyzeFile(t, dynamicFalse(log))
		f := recompileOf(t, a, "f")
		if !f.Expected || f.Unexpected() != 0 || f.Severity != "info" {
			t.Errorf("%s: expected %v, %d unexpected, %s: %s", log, f.Expected, f.Unexpected(), f.Severity, f.Title)
		}
		if f.Title != "f recompiled for a new size of x (x[0] 8→16): automatic dynamic, expected once" {
			t.Errorf("%s: title %q", log, f.Title)
		}
		if !strings.Contains(f.Detail, "Dynamic log: at 0/1 x[0] became a symbol") {
			t.Errorf("%s: detail\n%s", log, f.Detail)
		}
	}
}

// The report names the dynamic log among the logs the input shows were on (it said "recompiles" alone).
func TestLogsSeenNameDynamic(t *testing.T) {
	for _, log := range []string{"dynfalse-214.log", "dynauto-214.log", "dynfalse-26.log", "dynauto-26.log"} {
		a := triage.AnalyzeFile(t, dynamicFalse(log))
		if got := strings.Join(a.Evidence.Logs, ","); got != "dynamic,recompiles" {
			t.Errorf("%s: logs %q", log, got)
		}
		var buf bytes.Buffer
		if err := render.WriteReport(&buf, a, "text", text.Options{Width: 200}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "logs seen in the input: dynamic,recompiles") {
			t.Errorf("%s:\n%s", log, buf.String())
		}
	}
}

// TORCH_LOGS=dynamo logs the dynamic log's lines too (its loggers include them): an input whose Dynamo INFO lines
// show dynamo was on does not say dynamic was (testdata/compile: TORCH_LOGS=dynamo,aot,inductor, real 2.14.1).
func TestLogsSeenDynamoIsNotDynamic(t *testing.T) {
	path := filepath.Join("..", "testdata", "compile", "torch-2.14", "c01_mlp.cold.log")
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), "torch/fx/experimental/symbolic_shapes.py:4110] [0/0] create_env") {
		t.Fatalf("%s: no create_env line (%v)", path, err)
	}
	if a := triage.AnalyzeFile(t, path); strings.Contains(strings.Join(a.Evidence.Logs, ","), "dynamic") {
		t.Errorf("logs %v", a.Evidence.Logs)
	}
}

// Without the dynamic log nothing shows automatic dynamic: the finding stays expected (the default is on, and
// the counts do not change) but says it is assumed, and how to see it. The input is the real 2.14.1 log of the
// default with its dynamic-log lines taken out, as TORCH_LOGS=recompiles prints it.
func TestAutomaticDynamicAssumedWithoutDynamicLog(t *testing.T) {
	path := testlogs.LinesWith(t, dynamicFalse("dynauto-214.log"), "[__recompiles]")
	a := triage.AnalyzeFile(t, path)
	f := recompileOf(t, a, "f")
	if !f.Expected || f.Unexpected() != 0 || f.Severity != "info" {
		t.Errorf("expected %v, %d unexpected, %s: %s", f.Expected, f.Unexpected(), f.Severity, f.Title)
	}
	want := "f recompiled for a new size of x (x[0] 8→16): expected once if automatic dynamic is on (the default; TORCH_LOGS=dynamic would show it)"
	if f.Title != want {
		t.Errorf("title\n got %q\nwant %q", f.Title, want)
	}
	if strings.Contains(strings.Join(a.Evidence.Logs, ","), "dynamic") {
		t.Errorf("logs %v", a.Evidence.Logs)
	}
}

// The other cases of more.py, on both versions: three sizes under dynamic=False (the second recompile fails the
// first one's guard: refuted as before, and now said why), mark_static (2.14.1 still logs automatic dynamic's
// marking, but no symbol is made), an int argument under dynamic=False and under the default, and two tensors
// made dynamic one after the other.
func TestDynamicLogCases(t *testing.T) {
	for _, log := range []string{"more-214.log", "more-26.log"} {
		a := triage.AnalyzeFile(t, dynamicFalse(log))
		for _, c := range []struct {
			fn         string
			expected   bool
			unexpected int
			title      string
		}{
			{"three_sizes", false, 2, "three_sizes recompiles 2× on sizes of x (x[0] 8→16): the recompiled graphs kept x static (the dynamic log shows no symbol for it: dynamic=False, mark_static or automatic dynamic off)"},
			{"int_static", false, 1, "int_static recompiled for a new int value of n (was 2) and kept it static: the dynamic log shows no symbol for n (dynamic=False or automatic dynamic off), so each new value compiles again"},
			{"int_auto", true, 0, "int_auto recompiled for a new int value of n (was 2): automatic dynamic, expected once"},
		} {
			f := recompileOf(t, a, c.fn)
			if f.Expected != c.expected || f.Unexpected() != c.unexpected || f.Title != c.title {
				t.Errorf("%s %s: expected %v, %d unexpected\n got %q\nwant %q", log, c.fn, f.Expected, f.Unexpected(), f.Title, c.title)
			}
		}
		f := recompileOf(t, a, "static_dim")
		if f.Expected || f.Unexpected() != 1 || !strings.Contains(f.Title, "kept it static") {
			t.Errorf("%s static_dim: expected %v, %d unexpected: %s", log, f.Expected, f.Unexpected(), f.Title)
		}
		if marked := strings.Contains(f.Title, "marked it dynamic"); marked != (log == "more-214.log") {
			t.Errorf("%s static_dim: %s", log, f.Title)
		}
		n := 0
		for _, g := range a.Findings {
			if g.Kind == findings.KindRecompile && g.Function == "duck" {
				n++
				if !g.Expected || !strings.HasSuffix(g.Title, ": automatic dynamic, expected once") {
					t.Errorf("%s duck: %s", log, g.Title)
				}
			}
		}
		if n != 2 {
			t.Errorf("%s: %d findings of duck, want 2 (x, then y)", log, n)
		}
	}
}

// automatic_dynamic_shapes_mark_as = "unbacked" (2.14.1): automatic dynamic makes the size an unbacked symbol,
// which the dynamic log names in a create_unbacked_symint line, not create_symbol. The size does not recompile
// again (a third size ran on the second graph): still automatic dynamic's expected first, not "kept it static".
func TestUnbackedAutomaticDynamicIsASymbol(t *testing.T) {
	a := triage.AnalyzeFile(t, dynamicFalse("unbacked-214.log"))
	f := recompileOf(t, a, "f")
	if !f.Expected || f.Unexpected() != 0 || f.Title != "f recompiled for a new size of x (x[0] 8→16): automatic dynamic, expected once" {
		t.Errorf("expected %v, %d unexpected: %s", f.Expected, f.Unexpected(), f.Title)
	}
}

// check's PASS that leaves out automatic dynamic's first recompile rests on what showed it: where no dynamic log
// (nor trace) showed the symbol, the counted line and the JSON say the expectation is assumed. dynfalse-214's
// recompile lines alone (a dynamic=False run: the symbol was never made) passed --max-recompiles 0 with "(and 1
// expected, not counted)", as if that were shown; with its dynamic log the gate fails on it, and dynauto-214's
// confirmed recompile is expected with nothing assumed.
func TestGatePassOnAnAssumedExpectationSaysSo(t *testing.T) {
	path := testlogs.LinesWith(t, dynamicFalse("dynfalse-214.log"), "[__recompiles]")
	o := gate.Options{MaxGraphBreaks: -1, MaxRecompiles: 0}
	res := gate.Check(triage.AnalyzeFile(t, path), o)
	if line := gate.Summary(res); !res.Passed || res.Counts.RecompilesExpectedAssumed != 1 || !strings.Contains(line, "(and 1 expected, not counted, by assumption: TORCH_LOGS=dynamic would show it)") {
		t.Errorf("recompiles only: passed %v, assumed %d: %s", res.Passed, res.Counts.RecompilesExpectedAssumed, line)
	}
	if res := gate.Check(triage.AnalyzeFile(t, dynamicFalse("dynfalse-214.log")), o); res.Passed {
		t.Errorf("with the dynamic log: passed")
	}
	res = gate.Check(triage.AnalyzeFile(t, dynamicFalse("dynauto-214.log")), o)
	if line := gate.Summary(res); !res.Passed || res.Counts.RecompilesExpected != 1 || res.Counts.RecompilesExpectedAssumed != 0 || strings.Contains(line, "assumption") {
		t.Errorf("dynauto: passed %v: %s", res.Passed, line)
	}
}

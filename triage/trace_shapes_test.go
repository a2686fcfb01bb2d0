package triage

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
)

// recompileTitled is the recompile finding whose title starts with prefix.
func recompileTitled(t *testing.T, a *Analysis, prefix string) *findings.Finding {
	t.Helper()
	for i := range a.Findings {
		if f := &a.Findings[i]; f.Kind == findings.KindRecompile && strings.HasPrefix(f.Title, prefix) {
			return f
		}
	}
	t.Fatalf("no recompile finding titled %q… among %d findings", prefix, len(a.Findings))
	return nil
}

// A TORCH_TRACE file records each symbol a compile makes (a create_symbol event, the compile id in its envelope):
// the trace earns automatic dynamic's "expected once" as the dynamic log does. Real 2.6 and 2.14 traces:
// gb_recompile's shows x[0] made a symbol at 0/1, the compile its size recompile made, and r01_branch_print's
// likewise; r01's text log (the same run, its recompiles from TORCH_LOGS=recompiles) given with the trace keeps
// the text's recompile records and still earns it from the trace's symbols. Each read "expected once if automatic
// dynamic is on (the default; TORCH_LOGS=dynamic would show it)" and "Dynamic log: not on for 0/1".
func TestTraceShowsAutomaticDynamicSymbol(t *testing.T) {
	for _, v := range []string{"torch-2.6", "torch-2.14"} {
		dir := filepath.Join("..", "testdata", "fixtures", v)
		for _, c := range []struct {
			in   []string
			want string
		}{
			{[]string{filepath.Join(dir, "gb_recompile.trace")}, "f recompiled for a new size of x (x[0] 8→9): "},
			{[]string{filepath.Join(dir, "gb_recompile.withtrace.log"), filepath.Join(dir, "gb_recompile.trace")}, "f recompiled for a new size of x (x[0] 8→9): "},
			{[]string{filepath.Join(dir, "r01_branch_print.trace")}, "f recompiled for a new size of x (x[0] 4→8): "},
			{[]string{filepath.Join(dir, "r01_branch_print.withtrace.log"), filepath.Join(dir, "r01_branch_print.trace")}, "f recompiled for a new size of x (x[0] 4→8): "},
		} {
			a := AnalyzeFile(t, c.in...)
			f := recompileTitled(t, a, c.want)
			want := c.want + "automatic dynamic, expected once (the trace shows x[0] became a symbol at 0/1)"
			if f.Title != want || !f.Expected || f.Unexpected() != 0 {
				t.Errorf("%s %v: expected %v, %d unexpected: title %q", v, c.in, f.Expected, f.Unexpected(), f.Title)
			}
			if !strings.Contains(f.Detail, "TORCH_TRACE: at 0/1 x[0] became a symbol") || strings.Contains(f.Detail, "not on for") ||
				!strings.Contains(f.Detail, "(automatic dynamic: expected)") {
				t.Errorf("%s %v: detail\n%s", v, c.in, f.Detail)
			}
		}
	}
}

// The text log alone shows no symbol: it still assumes automatic dynamic, and says so.
func TestTextTwinOfTraceStillAssumes(t *testing.T) {
	a := AnalyzeFile(t, filepath.Join("..", "testdata", "fixtures", "torch-2.6", "r01_branch_print.withtrace.log"))
	f := recompileTitled(t, a, "f recompiled for a new size of x")
	if !strings.HasSuffix(f.Title, "expected once if automatic dynamic is on (the default; TORCH_LOGS=dynamic would show it)") {
		t.Errorf("title %q", f.Title)
	}
}

// A trace of a dynamic=False run (real 2.14.1 and 2.6, testdata/recorded/dynamic-false/trace-*) holds no symbol for
// the size that recompiled. The 2.14.1 trace names its torch (pytorch_version), which traces every symbol it makes:
// no symbol there is evidence, and the recompile is counted beyond automatic dynamic. The 2.6 trace names no
// version and shows no symbol at all: it settles nothing, and the expectation stays an assumption.
func TestTraceShowsNoSymbolOfDynamicFalse(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "dynamic-false")
	for _, in := range [][]string{{filepath.Join(dir, "trace-214")}, {filepath.Join(dir, "dynfalse-tr214.log"), filepath.Join(dir, "trace-214")}} {
		f := recompileTitled(t, AnalyzeFile(t, in...), "f recompiled for a new size of x (x[0] 8→16)")
		if f.Expected || !strings.Contains(f.Title, "the trace shows no symbol for x") {
			t.Errorf("%v: %q expected %v", in, f.Title, f.Expected)
		}
	}
	for _, in := range [][]string{{filepath.Join(dir, "trace-26")}, {filepath.Join(dir, "dynfalse-tr26.log"), filepath.Join(dir, "trace-26")}} {
		f := recompileTitled(t, AnalyzeFile(t, in...), "f recompiled for a new size of x (x[0] 8→16)")
		if !f.Expected || !strings.Contains(f.Title, "expected once if automatic dynamic is on") {
			t.Errorf("%v: %q expected %v", in, f.Title, f.Expected)
		}
	}
}

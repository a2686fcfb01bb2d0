package triage_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A recompile on a closure cell of a helper the compiled code calls (testdata/answers a15, real 2.14.1 and 2.6.0)
// says what changed in its own words — a variable of the helper's enclosing scope, no argument — with
// rc-closure-cell; 2.14's hint names the variable even through the report's guard memo, which drops comments.
// It read "new float value of helper.__closure__[0].cell_contents", playbook rc-value-float (HIGH).
func TestClosureCellRecompileSaysNoArgumentPassesIt(t *testing.T) {
	for v, want := range map[string]string{
		"2.14": "the variable shift that helper reads from its enclosing scope (a closure cell) changed between calls (was 0.5)",
		"2.6":  "a variable helper reads from its enclosing scope (its closure cell, helper.__closure__[0].cell_contents) changed between calls (was 0.5)",
	} {
		a := triagetest.ReportPaths(t, filepath.Join("..", "testdata", "answers", "torch-"+v, "a15_rc_closure_helper.triage.log"))
		if len(a.Findings) != 1 {
			t.Fatalf("%s: %d findings", v, len(a.Findings))
		}
		f := a.Findings[0]
		if f.Playbook != "rc-closure-cell" || f.FirstClass() != "closure_cell" || !strings.Contains(f.Title, want) ||
			!strings.Contains(f.Title, "which no argument passes") || f.Severity != "medium" {
			t.Errorf("%s: %s %s %s %q", v, f.Playbook, f.FirstClass(), f.Severity, f.Title)
		}
		if !strings.HasSuffix(f.Key, ":value_float") { // the key a baseline written before closure cells had
			t.Errorf("%s: key %q", v, f.Key)
		}
	}
}

package triage_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// One real repro per guard shape (testdata/answers/repro, recorded with torch 2.14.1 and 2.6.0): each recompile
// finding names its own class's playbook and says what changed in words true for that shape. Before the classes,
// an Enum member got "create objects once and reuse" (rc-object-identity), an optional dict key, a lazy
// attribute, a global list and a None test fell to generic-recompile ("other"), and a bool mode was a defect.
func TestRecompileGuardShapes(t *testing.T) {
	for _, c := range []struct {
		log, playbook, severity, words string
		variants                       bool
	}{
		{"torch-2.14/a01_rc_enum", "rc-enum-variant", "low", "one variant per Enum member passed as mode", true},
		{"torch-2.14/a02_rc_bool_mode", "rc-value-str-bool", "low", "one variant per value of the bool training", true},
		{"torch-2.14/a03_rc_str_mode", "rc-value-str-bool", "low", "one variant per str mode of act ('relu', 'gelu'", true},
		{"torch-2.6/a03_rc_str_mode", "rc-value-str-bool", "low", "one variant per str mode of act", true},
		{"torch-2.14/a04_rc_dict_key", "rc-dict-key", "medium", "the key 'mask' is in batch on some calls and not on others (an optional dict key, not a length)", false},
		{"torch-2.14/a05_rc_hasattr", "rc-hasattr-lazy", "medium", "self had no attribute 'pe' on the first call", false},
		{"torch-2.6/a05_rc_hasattr", "rc-hasattr-lazy", "medium", "self had no attribute 'pe' on the first call", false},
		{"torch-2.14/a06_rc_global_list", "rc-global-container", "high", "the global history the compiled code reads changed between calls", false},
		{"torch-2.6/a06_rc_global_list", "rc-global-container", "high", "the global history", false},
		{"torch-2.14/a07_rc_none_vs_tensor", "rc-none-variant", "low", "past is None on one call and a value on another", true},
		{"torch-2.6/a07_rc_none_vs_tensor", "rc-none-variant", "low", "past is True, False or None", true},
		{"torch-2.6/a02_rc_bool_mode", "rc-none-variant", "low", "training is True, False or None", true},
		{"torch-2.14/a08_rc_data_ptr_cache", "rc-global-container", "high", "the global _cache", false},
		{"torch-2.14/a09_rc_module_attr", "rc-module-attr", "medium", "torch keeps nn.Module int attributes static", false},
		{"torch-2.14/a11_rc_grad_mode", "rc-global-state", "medium", "grad_mode changed", false},
		{"torch-2.14/a13_rc_model_output", "rc-none-variant", "low", "the field loss of out is None on one call and set on another", true},
		{"torch-2.6/a13_rc_model_output", "rc-none-variant", "low", "out.loss is True, False or None", true},
		{"torch-2.6/a01_rc_enum", "rc-object-identity", "medium", "one of a fixed set, such as an Enum member, is a variant", false},
	} {
		a := triagetest.ReportPaths(t, filepath.Join("..", "testdata", "answers", c.log+".triage.log"))
		found := false
		for _, f := range a.Findings {
			if f.Kind != "recompile" || f.Playbook != c.playbook {
				continue
			}
			found = true
			if f.Severity != c.severity || !strings.Contains(f.Title, c.words) || f.Variants != c.variants {
				t.Errorf("%s: %s %s variants=%v %q; want %s, %q, variants=%v", c.log, f.Playbook, f.Severity, f.Variants, f.Title,
					c.severity, c.words, c.variants)
			}
			if c.variants && (!strings.Contains(f.Title, "expected variants, warm each up") || f.Unexpected() != 0) {
				t.Errorf("%s: bounded variants not expected: %q, %d unexpected", c.log, f.Title, f.Unexpected())
			}
		}
		if !found {
			var got []string
			for _, f := range a.Findings {
				got = append(got, string(f.Kind)+" "+f.Playbook+": "+f.Title)
			}
			t.Errorf("%s: no recompile finding with %s; findings: %q", c.log, c.playbook, got)
		}
	}
}

// A str "mode" that takes a new value every call is no set of modes: r12_limit_str's eight strings hit the limit
// and stay a high-severity defect, not expected variants.
func TestManyStringsAreNoModes(t *testing.T) {
	a := triagetest.ReportPaths(t, filepath.Join("..", "testdata", "fixtures", "torch-2.14", "r12_limit_str.triage.log"))
	for _, f := range a.Findings {
		if f.Kind == "recompile" && (f.Variants || f.Severity != "high" || strings.Contains(f.Title, "expected variants")) {
			t.Errorf("r12: %s %q variants=%v", f.Severity, f.Title, f.Variants)
		}
	}
}

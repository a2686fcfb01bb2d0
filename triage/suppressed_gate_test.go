package triage_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/gate"
)

// A frame torch gave up on (WON'T CONVERT under suppress_errors; real 2.14.1 and 2.6 output of
// testdata/answers/repro/f03_wont_convert.py) never compiles: it runs eager on every call. `check
// --no-compile-errors` passed it as "0 compile errors (1 caught)", as if the program had caught it. A compile error
// torch suppressed is still a compile error: the gate fails it, and its text, JSON, GitHub and JUnit outputs say
// torch suppressed it; an error the program itself caught stays "caught" and passes (TestCaughtCompileFailureIsNamed).
func TestGateFailsACompileErrorTorchSuppressed(t *testing.T) {
	for _, v := range []string{"torch-2.14", "torch-2.6"} {
		a := triage.AnalyzeFile(t, filepath.Join("..", "testdata", "answers", v, "f03_wont_convert.triage.log"))
		res := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileErrors: true})
		if res.Passed || len(res.Failures) != 1 || res.Failures[0].Rule != "--no-compile-errors" {
			t.Fatalf("%s: gate passed %v, failures %+v", v, res.Passed, res.Failures)
		}
		c := res.Counts
		if c.CompileErrors != 1 || c.CompileErrorsSuppressed != 1 || c.CompileErrorsCaught != 0 {
			t.Errorf("%s: counts %+v", v, c)
		}
		msg := res.Failures[0].Message
		if !strings.HasPrefix(msg, "1 compile error torch suppressed (WON'T CONVERT: the frame runs eager on every call): ") {
			t.Errorf("%s: failure %q", v, msg)
		}
		if s := gate.Summary(res); !strings.Contains(s, "1 compile error (1 suppressed by torch)") || strings.Contains(s, "caught") {
			t.Errorf("%s: summary %s", v, s)
		}
		var js strings.Builder
		if err := gate.WriteGateRooted(&js, "json", res, ""); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Passed bool           `json:"passed"`
			Counts map[string]int `json:"counts"`
		}
		if err := json.Unmarshal([]byte(js.String()), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Passed || doc.Counts["compile_errors"] != 1 || doc.Counts["compile_errors_suppressed"] != 1 || doc.Counts["compile_errors_caught"] != 0 {
			t.Errorf("%s: json %s", v, js.String())
		}
		for _, format := range []string{"github", "junit", "text"} {
			var out strings.Builder
			if err := gate.WriteGateRooted(&out, format, res, ""); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), "torch suppressed (WON'T CONVERT") {
				t.Errorf("%s %s:\n%s", v, format, out.String())
			}
		}
	}
}

package logparse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Dynamo's WON'T CONVERT record (suppress_errors=True, a backend that raises; real 2.14.1 and 2.6.0 runs of
// testdata/answers/repro/f03_wont_convert.py) is an exception Dynamo suppressed, with the frame it names and the
// error it gave up on; before, its lines were no record at all.
func TestWontConvertRecord(t *testing.T) {
	for _, v := range []string{"2.14", "2.6"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "answers", "torch-"+v, "f03_wont_convert.triage.log"))
		if err != nil {
			t.Fatal(err)
		}
		var got []*CompileError
		err = Parse(bytes.NewReader(data), Options{}, func(r *Record) {
			if r.Error != nil && r.Error.Suppressed {
				got = append(got, r.Error)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 0 {
			t.Fatalf("%s: no suppressed error", v)
		}
		e := got[0]
		if e.Frame.Func != "f" || filepath.Base(e.Frame.File) != "f03_wont_convert.py" || e.Frame.Line != 10 ||
			e.Class != "torch._dynamo.exc.BackendCompilerFailed" || !e.Caught {
			t.Errorf("%s: %+v", v, e)
		}
	}
}

// The WON'T CONVERT of a recompile-limit hit (gb_recompile's dynamo_info logs, 2.6 and 2.14) is the limit's: no
// suppressed error of its own.
func TestWontConvertOfTheLimitIsNoError(t *testing.T) {
	for _, v := range []string{"2.14", "2.6"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "torch-"+v, "gb_recompile.dynamo_info.log"))
		if err != nil {
			t.Fatal(err)
		}
		_ = Parse(bytes.NewReader(data), Options{}, func(r *Record) {
			if r.Error != nil && r.Error.Suppressed {
				t.Errorf("%s: %+v", v, r.Error)
			}
		})
	}
}

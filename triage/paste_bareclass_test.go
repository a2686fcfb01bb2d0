package triage_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
)

// IPython's last line names Dynamo's class without its module (pasted-logs.md §1); pasted without the rest of
// the traceback it is the compile error the module-named line is, not a runtime error of its inner error.
func TestPastedBareClassIsACompileError(t *testing.T) {
	b, err := os.ReadFile(Fx("torch-2.11-cuda/g05b_manual_capture_cold.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	at := strings.Index(text, "torch._dynamo.exc.BackendCompilerFailed: ")
	end := strings.Index(text[at:], "\n\n")
	if at < 0 || end < 0 {
		t.Fatal("no BackendCompilerFailed in the fixture")
	}
	named := text[at:at+end] + "\n"
	want := triage.ReportOfText(t, named)
	got := triage.ReportOfText(t, strings.TrimPrefix(named, "torch._dynamo.exc."))
	if got.Counts.CompileErrors != 1 || got.Counts.RuntimeErrors != 0 || !reflect.DeepEqual(got.Counts, want.Counts) {
		t.Errorf("counts %+v, want %+v", got.Counts, want.Counts)
	}
	if g, w := got.Signature(triage.SiteNone), want.Signature(triage.SiteNone); !reflect.DeepEqual(g, w) {
		t.Errorf("findings %q, want %q", g, w)
	}
}

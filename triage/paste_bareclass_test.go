package triage

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// IPython's last line names Dynamo's class without its module (pasted-logs.md §1); pasted without the rest of
// the traceback it is the compile error the module-named line is, not a runtime error of its inner error.
func TestPastedBareClassIsACompileError(t *testing.T) {
	b, err := os.ReadFile(fx("torch-2.11-cuda/g05b_manual_capture_cold.triage.log"))
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
	want := reportOfText(t, named)
	got := reportOfText(t, strings.TrimPrefix(named, "torch._dynamo.exc."))
	if got.counts.CompileErrors != 1 || got.counts.RuntimeErrors != 0 || !reflect.DeepEqual(got.counts, want.counts) {
		t.Errorf("counts %+v, want %+v", got.counts, want.counts)
	}
	if g, w := got.signature(siteNone), want.signature(siteNone); !reflect.DeepEqual(g, w) {
		t.Errorf("findings %q, want %q", g, w)
	}
}

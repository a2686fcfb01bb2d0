package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// A run whose TORCH_LOGS torch rejected at import (real 2.14.1, testdata/recorded/invalid-logs) logged nothing:
// its counts are no count of breaks or recompiles ("graph breaks 0 distinct" claimed logging had shown none), the
// basis says torch rejected the setting, and the error's place is the program's `import torch` (quick.py:1), not
// the tool's import hook its traceback passes through (probe/sitecustomize.py).
func TestRunWhoseTorchLogsTorchRejected(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "invalid-logs", "runs", "0006-custom")
	code, out, errb := runCLI("report", "--width", "200", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, bad := range []string{"graph breaks 0", "recompiles 0", "sitecustomize"} {
		if strings.Contains(out, bad) {
			t.Errorf("report says %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"graph breaks not logged", "recompiles not logged", "torch rejected it", "quick.py:1"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

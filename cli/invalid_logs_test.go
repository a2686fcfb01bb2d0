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

// A run whose wrapper turned torch.compile off (real 2.14.1, testdata/recorded/compile-off) compiled nothing:
// the gate has no evidence (exit 4), not a pass on "0 graph breaks", and the report's verdict says compile was off.
func TestGateOfARunWithCompileOff(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "compile-off", "runs", "0012-breaks")
	code, out, errb := runCLI("check", "--max-graph-breaks", "0", dir)
	if code != exitNoEvidence || strings.Contains(out, "PASS") || !strings.Contains(errb, "torch.compile was off (TORCHDYNAMO_DISABLE=1)") {
		t.Errorf("check: exit %d\nstdout %s\nstderr %s", code, out, errb)
	}
	_, out, _ = runCLI("report", "--width", "200", dir)
	if strings.Contains(out, "steady state") || !strings.Contains(out, "Verdict: no evidence: torch.compile was off") {
		t.Errorf("report:\n%s", out)
	}
}

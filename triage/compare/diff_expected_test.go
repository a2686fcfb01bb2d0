package compare_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// An expected recompile (automatic dynamic's first) that a warm PGO profile absorbed is no fix: the rerun's
// profile made the dimension dynamic from the start (testdata/compile/runs-2.14 0001 → 0002, the same command
// warm). diff listed it "Gone from A" with nothing said, and the bringup log "fixed recompile reason".
func TestExpectedRecompileGoneIsNoFix(t *testing.T) {
	runs := filepath.Join("..", "..", "testdata", "compile", "runs-2.14")
	out := triagetest.Diff(t, "text", 80, filepath.Join(runs, "0001-trace"), filepath.Join(runs, "0002-trace"))
	if !strings.Contains(lineWith(out, "recompiles of inner on size guards"), "expected") {
		t.Errorf("diff:\n%s", out)
	}
}

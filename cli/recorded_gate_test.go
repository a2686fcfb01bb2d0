package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// One run named twice is not "2 runs" (it read ".torchtriage/runs/0001-breaks, .torchtriage/runs/0001-breaks are
// 2 runs").
func TestOneRunNamedTwice(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "quiet-rank", "runs", "0013-breaks")
	code, _, errb := runCLI("check", "--max-graph-breaks", "0", dir, dir)
	if code != exitUsage || strings.Contains(errb, "2 runs") || !strings.Contains(errb, "named 2 times") {
		t.Errorf("exit %d: %s", code, errb)
	}
}

package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// The program silenced logging while the probe counted a break (real 2.14.1, testdata/recorded/silenced-logging):
// the log's zeros are no count (triage's TestSilencedLogIsNoCount: the report), and diff and the bringup log do
// not count them either.
func TestSilencedLogIsNoCountInDiffAndLog(t *testing.T) {
	dir := filepath.Join("..", "testdata", "recorded", "silenced-logging", "runs", "0001-breaks")
	// against a log with a limit hit: the hit is not "gone", and nothing blames TORCH_LOGS
	other := filepath.Join("..", "testdata", "fixtures", "torch-2.14", "gb_recompile.triage.log")
	_, out, _ := runCLI("diff", "--width", "300", other, dir)
	if strings.Contains(out, "Gone") || strings.Contains(out, "TORCH_LOGS") || !strings.Contains(out, "lacks in its log what its probe counted") {
		t.Errorf("diff:\n%s", out)
	}
	// the bringup log counts nothing of it either
	_, out, _ = runCLI("log", "--width", "300", "--store", filepath.Dir(dir))
	if strings.Contains(out, "not logged") || strings.Contains(out, "0 limit hits") || !strings.Contains(out, "log silenced") {
		t.Errorf("log:\n%s", out)
	}
}

package testlogs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPath(t *testing.T) {
	p := Path(t, "fixtures", "torch-2.14", "gb_recompile.triage.log")
	if want := filepath.Join("..", "..", "testdata", "fixtures", "torch-2.14", "gb_recompile.triage.log"); p != want {
		t.Errorf("Path = %q, want %q", p, want)
	}
	if _, err := os.Stat(p); err != nil {
		t.Error(err)
	}
}

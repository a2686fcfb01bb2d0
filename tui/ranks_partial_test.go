package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Ranks view words rank agreement as the report does, from the one summary: of a test-only copy of
// quiet-rank's run whose rank 0 probe counts 3 frame compiles (synthetic_, as cli's synthetic3Frames), rank 0 is
// compared on graph breaks (it lacks rank 1's) and its recompiles are named as not compared.
func TestRanksViewOfARankComparedOnSomeQuantities(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "synthetic_quiet-rank-3-frames")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", recordedRun("quiet-rank", "0013-breaks")))); err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "probe", "rank0-*.json"))
	b, _ := os.ReadFile(matches[0])
	const one, three = `"frames": {"ok": 1, "total": 1}`, `"frames": {"ok": 3, "total": 3}`
	if len(matches) != 1 || !strings.Contains(string(b), one) {
		t.Fatalf("rank 0's probe %v: %.200s", matches, b)
	}
	if err := os.WriteFile(matches[0], []byte(strings.Replace(string(b), one, three, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	td, _ := filepath.Abs("testdata")
	rel, err := filepath.Rel(td, dir) // openModel joins testdata/
	if err != nil {
		t.Fatal(err)
	}
	m := openModel(t, 120, 40, rel)
	press(m, "R")
	s := plain(m)
	flat := strings.Join(strings.Fields(strings.ReplaceAll(s, "┃", " ")), " ")
	for _, want := range []string{"rank 0 differs from rank 1: missing graph break print() at dist.py:8",
		"rank 0 as its probe counted (no log record names it): no graph break; its recompiles not compared (its probe counted 3 frame compiles, which may be recompiles)"} {
		if !strings.Contains(flat, want) {
			t.Errorf("Ranks view lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "not compared: rank 0") {
		t.Errorf("Ranks view:\n%s", s)
	}
}

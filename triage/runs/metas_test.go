package runs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
)

// A command reads a run directory's meta.json once (report read it four times: runPaths' one-run store,
// refuseStores, load's interrupted warning, runFacts): a Metas answers from its first read, so a meta.json gone
// after it changes nothing; the nil Metas reads it at each ask.
func TestMetasReadOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "0013-breaks")
	if err := os.CopyFS(dir, os.DirFS(testlogs.Path(t, "recorded", "quiet-rank", "runs", "0013-breaks"))); err != nil {
		t.Fatal(err)
	}
	metas := Metas{}
	first, err := metas.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "meta.json")); err != nil {
		t.Fatal(err)
	}
	again, err := metas.Load(dir)
	if err != nil || again.Name != first.Name {
		t.Errorf("read again: %v %q %q", err, again.Name, first.Name)
	}
	if _, err := Metas(nil).Load(dir); err == nil {
		t.Error("the nil Metas reads meta.json at each ask")
	}
}

// A run store of one run (and nothing else) is that run; a run directory, a store of two runs, a directory of
// logs are not. StoreRuns counts a store's runs.
func TestOneRunOfAndStoreRuns(t *testing.T) {
	one := testlogs.Path(t, "recorded", "caught-compile", "runs")
	if got := Metas(nil).OneRunOf(one); got != filepath.Join(one, "0001-breaks") {
		t.Errorf("OneRunOf(a store of one run) = %q", got)
	}
	if got := Metas(nil).OneRunOf(filepath.Join(one, "0001-breaks")); got != "" {
		t.Errorf("OneRunOf(a run directory) = %q", got)
	}
	two := t.TempDir()
	for _, name := range []string{"0001-breaks", "0002-breaks"} {
		if err := os.CopyFS(filepath.Join(two, name), os.DirFS(filepath.Join(one, "0001-breaks"))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(two, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ms := Metas{}
	if got := ms.OneRunOf(two); got != "" {
		t.Errorf("OneRunOf(a store of two runs) = %q", got)
	}
	if n, last := ms.StoreRuns(two); n != 2 || last != filepath.Join(two, "0002-breaks") {
		t.Errorf("StoreRuns = %d, %q", n, last)
	}
	if n, _ := ms.StoreRuns(filepath.Join(two, "notes.txt")); n != 0 {
		t.Errorf("StoreRuns(a file) = %d", n)
	}
}

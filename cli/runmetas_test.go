package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// report reads a run directory's meta.json once (it read it four times: runPaths' one-run store, refuseStores,
// load's interrupted warning, runFacts): a runMetas answers from its first read, so a meta.json gone after it
// changes nothing.
func TestRunMetasReadOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "0013-breaks")
	if err := os.CopyFS(dir, os.DirFS("../testdata/recorded/quiet-rank/runs/0013-breaks")); err != nil {
		t.Fatal(err)
	}
	metas := runMetas{}
	first, err := metas.meta(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "meta.json")); err != nil {
		t.Fatal(err)
	}
	again, err := metas.meta(dir)
	if err != nil || again.Name != first.Name || metas.runFacts([]string{dir}) == nil {
		t.Errorf("read again: %v %q %q", err, again.Name, first.Name)
	}
	if _, err := runMetas(nil).meta(dir); err == nil {
		t.Error("the nil runMetas reads meta.json at each ask")
	}
}

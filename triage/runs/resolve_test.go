package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run is named by its number or its name in the store, or by its directory; a file of that name wins; a number
// or name of no run says so; FindRun wants a run, with its meta.json.
func TestResolveAndFindRun(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	dir := filepath.Join(store, "0003-breaks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(`{"id": 3, "name": "0003-breaks", "state": "exited"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(store, "0004-deep") // a run directory without its meta.json
	if err := os.MkdirAll(bare, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ arg, want, err string }{
		{"3", dir, ""},
		{"0003-breaks", dir, ""},
		{"-", "-", ""},
		{"train.log", "train.log", ""},
		{"7", "", "no file 7 and no run 7 in " + store},
		{"0007-breaks", "", "no file 0007-breaks and no run 0007-breaks in " + store},
	} {
		got, err := Resolve(c.arg, store)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("Resolve(%q) = %q, %v; want %q, %q", c.arg, got, err, c.want, c.err)
		}
	}
	if got, err := FindRun("3", store); got != dir || err != nil {
		t.Errorf("FindRun(3) = %q, %v", got, err)
	}
	if _, err := FindRun("4", store); err == nil || err.Error() != "4 is not a run: no run directory with a meta.json (a run number, or a directory under "+store+")" {
		t.Errorf("FindRun of a directory without meta.json: %v", err)
	}
	if _, err := FindRun("x.log", ""); err == nil || !strings.HasSuffix(err.Error(), "a directory under "+DefaultStoreDir+")") {
		t.Errorf("FindRun of no run, default store: %v", err)
	}
	// a file named as a number is that file, not a run
	t.Chdir(t.TempDir())
	if err := os.WriteFile("3", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Resolve("3", store); got != "3" || err != nil {
		t.Errorf("Resolve(3) with a file 3 here = %q, %v", got, err)
	}
}

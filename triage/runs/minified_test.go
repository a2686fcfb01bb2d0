package runs

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A run the ladder's minifier and bisector worked on packs its minified repro and their verdicts, and the README
// says what each found; a run without them says nothing of either.
func TestBundlePacksTheMinifiedRepro(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "0004-breaks")
	code := 1
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteMeta(dir, Meta{ID: 4, Name: "0004-breaks", Argv: []string{"python3", "x.py"}, UserArgv: []string{"python3", "x.py"},
		Preset: "breaks", State: StateExited, ExitCode: &code, Start: time.Unix(0, 0)}); err != nil {
		t.Fatal(err)
	}
	bundle := func() (map[string]string, error) {
		out := filepath.Join(t.TempDir(), "b.tar.gz")
		if err := Bundle(dir, out, BundleOptions{}); err != nil {
			return nil, err
		}
		f, err := os.Open(out)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		files := map[string]string{}
		tr := tar.NewReader(gz)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				return files, nil
			} else if err != nil {
				return nil, err
			}
			data, _ := io.ReadAll(tr)
			files[h.Name] = string(data)
		}
	}
	files, err := bundle()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(files["0004-breaks/README.md"], "Minified") {
		t.Errorf("a run without a minifier's work: %s", files["0004-breaks/README.md"])
	}
	if err := WriteMinified(dir, Minified{Repro: "repro.py", Minifier: "minified from 10 to 3 nodes in 14 queries",
		Bisector: "the bisector blames the inductor backend, subsystem `lowerings` at number 2: relu"}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, MinifiedDir, "repro.py"), []byte("import torch\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if files, err = bundle(); err != nil {
		t.Fatal(err)
	}
	readme := files["0004-breaks/README.md"]
	if files["0004-breaks/minified/repro.py"] != "import torch\n" || !strings.Contains(readme, "`minified/repro.py` is PyTorch's minified repro") ||
		!strings.Contains(readme, "- Minifier: minified from 10 to 3 nodes in 14 queries") ||
		!strings.Contains(readme, "- Compiler bisector: the bisector blames the inductor backend, subsystem `lowerings` at number 2: relu") {
		t.Errorf("files %v\nREADME:\n%s", slices.Sorted(maps.Keys(files)), readme)
	}
}

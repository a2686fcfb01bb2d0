package cli

import (
	"archive/tar"
	"compress/gzip"
	"os"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/session"
)

// bundle packs a stored run by number or directory, -o/--output places it; a missing or unknown run is a usage
// error (exit 2).
func TestCmdBundle(t *testing.T) {
	t.Chdir(t.TempDir())
	s, err := session.OpenStore("")
	if err != nil {
		t.Fatal(err)
	}
	dir, _, err := session.RunToEnd(s, session.Spec{Argv: []string{"true"}, Preset: "eager"}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI("bundle", "1")
	if code != 0 {
		t.Fatalf("bundle 1: exit %d: %s", code, errs)
	}
	if _, err := os.Stat("0001-eager.tar.gz"); err != nil || !strings.Contains(out, "0001-eager.tar.gz") {
		t.Errorf("default output: %v, %q", err, out)
	}
	if code, _, errs := runCLI("bundle", dir, "-o", "x/out.tgz"); code != 0 {
		t.Fatalf("bundle DIR -o: exit %d: %s", code, errs)
	}
	if !tarHas(t, "x/out.tgz", "0001-eager/meta.json") {
		t.Error("out.tgz lacks 0001-eager/meta.json")
	}
	if code, _, errs := runCLI("bundle"); code != 2 || !strings.Contains(errs, "want one run") {
		t.Errorf("no args: exit %d %q", code, errs)
	}
	if code, _, errs := runCLI("bundle", "7"); code != 2 || !strings.Contains(errs, "no run 7") {
		t.Errorf("missing run: exit %d %q", code, errs)
	}
}

func tarHas(t *testing.T, path, name string) bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			return false
		}
		if h.Name == name {
			return true
		}
	}
}

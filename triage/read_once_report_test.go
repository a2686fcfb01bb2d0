package triage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// What was read once is in every format, not on stderr alone: JSON evidence.read_once names each path not read,
// the input it repeats and why; Markdown says it in the words stderr uses (cli's TestReadOnceIsSaidOnStderr).
func TestReadOnceIsInTheReport(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(Fx("torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "train.log", string(data))
	if err := os.Symlink("train.log", filepath.Join(dir, "latest.log")); err != nil {
		t.Fatal(err)
	}
	out := triagetest.ReportJSON(t, dir)
	var rep struct {
		Evidence struct {
			ReadOnce []struct {
				Path   string `json:"path"`
				SameAs string `json:"same_as"`
				Why    string `json:"why"`
			} `json:"read_once"`
		} `json:"evidence"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	ro := rep.Evidence.ReadOnce
	if len(ro) != 1 || ro[0].Path != filepath.Join(dir, "latest.log") || ro[0].SameAs != filepath.Join(dir, "train.log") || ro[0].Why != "same_file" {
		t.Errorf("read_once %+v", ro)
	}
	out = triagetest.Render(t, triagetest.ReportPaths(t, dir), "markdown", 80)
	if want := "read once: " + filepath.Join(dir, "latest.log") + " is the same file as " + filepath.Join(dir, "train.log"); !strings.Contains(out, want) {
		t.Errorf("markdown lacks %q:\n%s", want, out)
	}
	out = triagetest.ReportJSON(t, filepath.Join(dir, "train.log"))
	if strings.Contains(out, "read_once") {
		t.Errorf("one file read once needs no read_once:\n%s", out)
	}
}

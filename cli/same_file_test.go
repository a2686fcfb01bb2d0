package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// report says on stderr what was read once, in the words its Markdown uses (triage's TestReadOnceIsInTheReport;
// what is read once: triage/report's read_once_test.go), and nothing when every input was read.
func TestReadOnceIsSaidOnStderr(t *testing.T) {
	dir := logDir(t, "train.log")
	if err := os.Symlink("train.log", filepath.Join(dir, "latest.log")); err != nil {
		t.Fatal(err)
	}
	code, out, errb := run(t, "report", "--format", "markdown", dir)
	if want := "read once: " + filepath.Join(dir, "latest.log") + " is the same file as " + filepath.Join(dir, "train.log"); code != 0 ||
		!strings.Contains(out, want) || !strings.Contains(errb, want) {
		t.Errorf("markdown (exit %d) lacks %q:\n%s\nstderr %s", code, want, out, errb)
	}
	if code, _, errb := run(t, "report", filepath.Join(dir, "train.log"), filepath.Join(dir, "train.log")); code != 0 || !strings.HasSuffix(errb, "train.log was named twice\n") {
		t.Errorf("the same path twice: exit %d, stderr %q", code, errb)
	}
	if code, _, errb := run(t, "report", filepath.Join(dir, "train.log")); code != 0 || errb != "" {
		t.Errorf("one file: exit %d, stderr %q", code, errb)
	}
}

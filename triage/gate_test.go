package triage

import (
	"os"
	"path/filepath"
	"testing"
)

func fx(name string) string { return filepath.Join(fixtures, name) }

func TestRelPath(t *testing.T) {
	wd, _ := os.Getwd()
	if got := relPath(filepath.Join(wd, "a", "b.py")); got != "a/b.py" {
		t.Errorf("%q", got)
	}
	if got := relPath("/elsewhere/b.py"); got != "/elsewhere/b.py" {
		t.Errorf("%q", got)
	}
}

// Workflow-command properties escape %, CR, LF, ':' and ','.
func TestGitHubPropertyEscaping(t *testing.T) {
	if got := ghProp("a:b,c%\nd"); got != "a%3Ab%2Cc%25%0Ad" {
		t.Errorf("ghProp %q", got)
	}
}

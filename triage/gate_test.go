package triage

import (
	"path/filepath"
	"testing"
)

func Fx(name string) string { return filepath.Join(Fixtures, name) }

// Workflow-command properties escape %, CR, LF, ':' and ','.
func TestGitHubPropertyEscaping(t *testing.T) {
	if got := ghProp("a:b,c%\nd"); got != "a%3Ab%2Cc%25%0Ad" {
		t.Errorf("ghProp %q", got)
	}
}

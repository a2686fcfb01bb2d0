package triage_test

import (
	"path/filepath"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"

	"github.com/torchtriage/torchtriage/triage"
)

func Fx(name string) string { return filepath.Join(triage.Fixtures, name) }

// Workflow-command properties escape %, CR, LF, ':' and ','.
func TestGitHubPropertyEscaping(t *testing.T) {
	if got := gate.GhProp("a:b,c%\nd"); got != "a%3Ab%2Cc%25%0Ad" {
		t.Errorf("ghProp %q", got)
	}
}

package gate_test

import (
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
)

// Workflow-command properties escape %, CR, LF, ':' and ','.
func TestGitHubPropertyEscaping(t *testing.T) {
	if got := gate.GhProp("a:b,c%\nd"); got != "a%3Ab%2Cc%25%0Ad" {
		t.Errorf("ghProp %q", got)
	}
}

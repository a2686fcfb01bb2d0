package session

import (
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// A run's exit status is its program's only when the tool ran python or torchrun itself: a shell may exit 0 after
// python died (sh -c "python x.py; echo done"), so such an exit 0 settles nothing (triage.RunFacts.Direct).
func TestRunFactsDirect(t *testing.T) {
	for _, c := range []struct {
		m    runs.Meta
		want bool
	}{
		{runs.Meta{Argv: []string{"python3", "x.py"}}, true},
		{runs.Meta{Argv: []string{"/usr/bin/python3.12", "-m", "pkg"}}, true},
		{runs.Meta{Argv: []string{"torchrun", "--nproc-per-node", "2", "x.py"}}, true},
		{runs.Meta{Argv: []string{"torchrun", "--max-restarts", "0", "x.py"}}, true},
		{runs.Meta{Argv: []string{"torchrun", "--max-restarts", "3", "x.py"}}, false},
		{runs.Meta{Argv: []string{"python3", "-m", "torch.distributed.run", "--max_restarts=2", "x.py"}}, false},
		{runs.Meta{Argv: []string{"sh", "-c", "python x.py; echo done"}}, false},
		{runs.Meta{Argv: []string{"python", "x.py"}, Shell: true}, false},
		{runs.Meta{Argv: []string{"./train.sh"}}, false},
		{runs.Meta{}, false},
	} {
		if got := RunFactsOf(c.m).Direct; got != c.want {
			t.Errorf("%v (shell %v): direct %v, want %v", c.m.Argv, c.m.Shell, got, c.want)
		}
	}
}

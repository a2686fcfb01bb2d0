package story

import (
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// log --script names a script by its name, a path to it or a -m module's name.
func TestRunsScript(t *testing.T) {
	m := runs.Meta{UserArgv: []string{"python3", "sub/repro.py", "--steps", "3"}, Cwd: "/w"}
	mod := runs.Meta{UserArgv: []string{"python", "-m", "pkg.train"}, Cwd: "/w"}
	for _, c := range []struct {
		m      runs.Meta
		script string
		want   bool
	}{
		{m, "repro.py", true}, {m, "sub/repro.py", true}, {m, "/w/sub/repro.py", true}, {m, "other.py", false},
		{mod, "pkg.train", true}, {mod, "-m pkg.train", true}, {mod, "train.py", false},
	} {
		if got := RunsScript(c.m, c.script); got != c.want {
			t.Errorf("RunsScript(%q, %q) = %v, want %v", c.m.UserArgv, c.script, got, c.want)
		}
	}
}

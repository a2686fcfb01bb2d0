package triage_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// check gates paths as `torchtriage check` does with o (triagetest.CheckPaths): check's exit status, stdout and
// the gate's stderr.
func check(t *testing.T, o gate.RunOptions, paths ...string) (int, string, string) {
	t.Helper()
	res, out, errb := triagetest.CheckPaths(t, o, paths...)
	return res.Exit, out, errb
}

// lineWith is the line of s that holds sub, with the lines wrapped under it (triagetest.LineWith).
var lineWith = triagetest.LineWith

// playbookBody is the text of a built-in playbook, as `torchtriage explain ID` shows it.
func playbookBody(t *testing.T, id string) string {
	t.Helper()
	set, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := set.Get(id)
	if !ok {
		t.Fatalf("no playbook %s", id)
	}
	return p.Body
}

// writeFile writes text to dir/name.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rerecords is check's --max-cudagraph-rerecords N.
func rerecords(n int) *int { return &n }

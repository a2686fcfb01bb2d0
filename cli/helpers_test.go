package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/session"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// fixtures are the real PyTorch logs (testdata/fixtures, copied unchanged from the project's shared fixtures).
const fixtures = "../testdata/fixtures"

// TestMain lets the test binary be a run's reaper and the whole command line (TT_CLI_SELF=1: os.Args after the
// binary are a torchtriage command line), so that end-to-end tests can launch it as main.go would.
func TestMain(m *testing.M) {
	session.MaybeRunReaper()
	if os.Getenv("TT_CLI_SELF") == "1" {
		os.Exit(Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	// the tests see a UTF-8 colour terminal's environment wherever they run (text is ASCII under TERM=dumb or
	// LC_ALL=C); those of ASCII output change it with t.Setenv
	os.Setenv("TERM", "xterm-256color")
	os.Setenv("LC_ALL", "C.UTF-8")
	os.Unsetenv("NO_COLOR")
	os.Exit(m.Run())
}

func fx(name string) string { return filepath.Join(fixtures, name) }

// runCLI runs one command line and returns its status, stdout and stderr.
func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Run(args, nil, &out, &errb)
	return code, out.String(), errb.String()
}

func mustBuiltin(t *testing.T) *playbooks.Set {
	t.Helper()
	s, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fits reports whether every line of s is at most width columns wide.
func fits(s string, width int) bool {
	for _, l := range strings.Split(s, "\n") {
		if ansi.StringWidth(l) > width {
			return false
		}
	}
	return true
}

// userNew is a user playbook that adds a cause the built-in ones do not have.
const userNew = "---\nid: team-flash-attn\ntitle: Flash attention kernel falls back\nseverity: medium\ncategory: fix\n" +
	"match:\n  kinds: [graph_break]\n  reasons: ['flash_attn']\npreset: breaks\n---\n## Why\nw\n## Do\n1. d\n" +
	"## Verify\nv\n## Sources\n- https://wiki.example.org/flash\n"

// lineWith is the line of s that holds sub, with the lines wrapped under it (triagetest.LineWith).
var lineWith = triagetest.LineWith

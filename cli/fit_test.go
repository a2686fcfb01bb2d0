package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// Text output fits the terminal: 80 columns when stdout is not one (a buffer here), --width N otherwise, and
// only ASCII where the terminal or the locale cannot show more.

// bringupStore is a run store of n runs of one command, each printing the next of a few real logs (the
// command's output changing as a user's code does), so that log has deltas to tell.
func bringupStore(t *testing.T, n int) string {
	t.Helper()
	tmp := t.TempDir()
	store, err := runs.OpenStore(filepath.Join(tmp, "runs"))
	if err != nil {
		t.Fatal(err)
	}
	current := filepath.Join(tmp, "current.log")
	logs := []string{"torch-2.14/r05_dist_c10d.triage.log", "torch-2.14/r06_dist_funcol.triage.log",
		"torch-2.14/gb_recompile.triage.log"}
	for i := range n {
		data, err := os.ReadFile(fx(logs[i%len(logs)]))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(current, data, 0o644); err != nil {
			t.Fatal(err)
		}
		spec := runs.Spec{Argv: []string{"sh", "-c", "cat " + current + " >&2"}, Preset: "breaks"}
		if _, _, err := session.RunToEnd(store, spec, false, nil); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(tmp, "runs")
}

// textCommands are the commands whose text output is fitted, with arguments that make them say a lot.
func textCommands(t *testing.T) map[string][]string {
	t.Helper()
	store := bringupStore(t, 3)
	if code, _, errs := runCLI("note", "--store", store, "2", "switched to funcol after the c10d all_reduce broke the graph"); code != 0 {
		t.Fatal(errs)
	}
	cmds := map[string][]string{
		"presets":                  {"presets"},
		"playbooks":                {"playbooks"},
		"log":                      {"log", "--store", store},
		"diff":                     {"diff", fx("torch-2.6/r05_dist_c10d.triage.log"), fx("torch-2.14/gb_recompile.triage.log")},
		"explain":                  {"explain", "rc-stack-float"},
		"report r05_dist_c10d 2.6": {"report", fx("torch-2.6/r05_dist_c10d.triage.log")},
	}
	logs, _ := filepath.Glob(fx("torch-2.14/*.triage.log"))
	if len(logs) < 8 {
		t.Fatalf("fixtures: %v", logs)
	}
	for _, l := range logs {
		cmds["report "+filepath.Base(l)] = []string{"report", l}
	}
	return cmds
}

func TestTextFitsTheWidth(t *testing.T) {
	for name, args := range textCommands(t) {
		wide := 0 // the widest line at 300 columns: the fitting has something to do
		for _, width := range []int{0, 60, 300} {
			a := args
			if width > 0 {
				a = append(append([]string{}, args...), "--width", strconv.Itoa(width))
			}
			code, out, errs := runCLI(a...)
			if code != 0 || len(out) < 200 {
				t.Fatalf("%s: exit %d, %q\n%s", name, code, errs, out)
			}
			limit := width
			if width == 0 {
				limit = 80
			}
			for i, l := range strings.Split(out, "\n") {
				if w := ansi.StringWidth(l); w > limit {
					t.Errorf("%s at %d columns: line %d is %d wide: %q", name, limit, i+1, w, l)
				} else if width == 300 {
					wide = max(wide, w)
				}
			}
		}
		if wide <= 80 && name != "explain" { // a playbook's text is wrapped at any width
			t.Errorf("%s: no line wider than 80 even at 300 columns: the test shows nothing", name)
		}
	}
}

// Where the terminal or the locale cannot show more, text is pure ASCII; on a UTF-8 terminal it is not (the
// ASCII cases would show nothing otherwise).
func TestTextASCIIWhereNeeded(t *testing.T) {
	cmds := textCommands(t)
	plain := map[string]bool{"presets": true, "playbooks": true} // no Unicode in them to begin with
	for _, env := range []struct {
		name        string
		term, lcAll string
		noColor     string
		ascii       bool
	}{
		{"UTF-8 terminal", "xterm-256color", "C.UTF-8", "", false},
		{"LC_ALL=C", "xterm-256color", "C", "", true},
		{"LC_ALL=POSIX", "xterm-256color", "POSIX", "", true},
		{"TERM=dumb", "dumb", "C.UTF-8", "", true},
		{"TERM=vt100", "vt100", "C.UTF-8", "", true},
		{"NO_COLOR", "xterm-256color", "en_US.UTF-8", "1", true},
	} {
		t.Run(env.name, func(t *testing.T) {
			t.Setenv("TERM", env.term)
			t.Setenv("LC_ALL", env.lcAll)
			t.Setenv("NO_COLOR", env.noColor)
			for name, args := range cmds {
				code, out, errs := runCLI(args...)
				if code != 0 {
					t.Fatalf("%s: exit %d %q", name, code, errs)
				}
				if i := nonASCII(out); (i < 0) != env.ascii && !(plain[name] && i < 0) {
					t.Errorf("%s: ASCII only %v, want %v (first non-ASCII at %d):\n%s", name, i < 0, env.ascii, i, out)
				}
				if !fits(out, 80) {
					t.Errorf("%s: wider than 80 columns:\n%s", name, out)
				}
			}
		})
	}
}

func nonASCII(s string) int {
	for i, r := range s {
		if r >= 0x80 {
			return i
		}
	}
	return -1
}

// Markdown and JSON are pasted and parsed elsewhere: neither the width nor the terminal changes them.
func TestMarkdownAndJSONIgnoreTheTerminal(t *testing.T) {
	log := fx("torch-2.14/gb_recompile.triage.log")
	for _, format := range []string{"markdown", "json"} {
		_, want, _ := runCLI("report", "--format", format, log)
		t.Setenv("LC_ALL", "C")
		_, got, _ := runCLI("report", "--format", format, "--width", "40", log)
		t.Setenv("LC_ALL", "C.UTF-8")
		if got != want || nonASCII(want) < 0 {
			t.Errorf("%s changed with --width 40 and LC_ALL=C (or has no Unicode to lose):\n%s", format, got)
		}
	}
}

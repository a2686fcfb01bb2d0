package tui

import (
	"strings"
	"testing"
)

// configParity is the Ranks view's "Config parity (probe)" section as one line: its rows up to the next blank
// one, without the box's borders, joined by spaces.
func configParity(t *testing.T, screen string) string {
	t.Helper()
	_, rest, ok := strings.Cut(screen, "Config parity (probe)")
	if !ok {
		t.Fatalf("no Config parity section:\n%s", screen)
	}
	var words []string
	for _, l := range strings.Split(rest, "\n")[1:] {
		l = strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "┃│"))
		if l == "" {
			break
		}
		words = append(words, l)
	}
	return strings.Join(words, " ")
}

// A run the tool's timeout stopped (testdata/recorded/diverged-hang, real 2.14.1): both ranks imported torch and
// their probes wrote start and compile files, only the config each writes at exit is missing. The Ranks view said
// "no probe data: none written (no torch, or killed before exit)": false, there is probe data and torch ran.
func TestNoConfigOfAStoppedRun(t *testing.T) {
	for _, w := range []int{80, 120} {
		m := openModel(t, w, 60, "../../testdata/recorded/diverged-hang/runs/0001-breaks")
		press(m, "R")
		s := plain(m)
		got := configParity(t, s)
		want := "no config recorded: torchtriage stopped the run (timed out after 30s) and its 2 torch processes " +
			"ended without writing it at exit; the probe wrote only their start and compile state"
		if got != want {
			t.Errorf("%d columns: Config parity %q, want %q\n%s", w, got, want, s)
		}
		if strings.Contains(s, "none written") || strings.Contains(s, "no torch") {
			t.Errorf("%d columns: false words\n%s", w, s)
		}
	}
}

// The other runs with no config: stopped inside `import torch` (no start file), killed by a signal after
// compiling, torchrun's rendezvous failing before any rank: each says what its run directory holds.
func TestNoConfigOfOtherRuns(t *testing.T) {
	for _, c := range []struct{ dir, want string }{
		{"stopped-in-import/runs/0001-breaks", "no config recorded: the probe saw no process of the program " +
			"finish importing torch before torchtriage stopped the run (timed out after 4s)"},
		{"segv/runs/0001-breaks", "no config recorded: the run was killed (segmentation fault) and its torch " +
			"process ended without writing it at exit; the probe wrote only its start and compile state"},
		{"rendezvous-libuv/runs/0001-breaks", "no config recorded: the probe saw no process of the program " +
			"finish importing torch"},
	} {
		m := openModel(t, 80, 60, "../../testdata/recorded/"+c.dir)
		press(m, "R")
		s := plain(m)
		if got := configParity(t, s); got != c.want {
			t.Errorf("%s: Config parity %q, want %q\n%s", c.dir, got, c.want, s)
		}
	}
}

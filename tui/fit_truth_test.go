package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// cgRun is the GPU run of the e2e captures: g01 (a CPU tensor copied inside the graph) run with preset cudagraphs.
func cgRun(t *testing.T, w, h int) *Model {
	t.Helper()
	m := newModel(options{mode: modeRun, spec: runs.Spec{Argv: []string{"python3", "g01_cg_cpu_input.py"},
		Preset: "cudagraphs", TorchVersion: "2.11.0+cu130"}, set: builtinSet(t), noLaunch: true})
	m.now = func() time.Time { return fixedNow }
	t.Cleanup(m.sess.Stop)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	feedRun(t, m, 9, "../../testdata/fixtures/torch-2.11-cuda/g01_cg_cpu_input.perf.log", "cudagraphs",
		"graph_breaks,recompiles,perf_hints,cudagraphs", 0)
	return m
}

// wordBefore is the word right before a "…" at i in s ("" when a space or nothing is there).
func wordBefore(s string, i int) string {
	f := strings.Fields(s[:i])
	if len(f) == 0 || strings.HasSuffix(s[:i], " ") {
		return ""
	}
	return strings.TrimLeft(f[len(f)-1], "(`'\"")
}

// At 80x24 and 120x32 what the main screen cuts it cuts at a word, never with two ellipses in a row; the status
// bar keeps its parts apart; the preset bar shows every log the preset turned on; the header names logs whole.
func TestMainScreenCutsAtWords(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 32}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := cgRun(t, sz[0], sz[1])
			out := plain(m)
			lines := strings.Split(out, "\n")
			pb := m.selected().pb
			if pb == nil || pb.ID != "cg-partition-device-copy" {
				t.Fatalf("selected playbook %+v\n%s", pb, out)
			}
			source := pb.Title + "\n" + pb.Body
			if regexp.MustCompile(`…\s*…`).MatchString(out) {
				t.Errorf("two ellipses in a row:\n%s", out)
			}
			title := lineWith(t, out, "Recommended")
			if !strings.Contains(title, "Recommended · CUDA graphs leave out a device copy") || !strings.Contains(title, " · fix ─") {
				t.Errorf("the recommendation's title is cut inside a word or loses its category: %q", title)
			}
			for _, l := range lines {
				if !strings.HasPrefix(l, "│") {
					continue
				}
				if i := strings.Index(l, "…"); i >= 0 {
					if w := wordBefore(l, i); w != "" && !regexp.MustCompile(regexp.QuoteMeta(w)+`([\s.,;:)`+"`"+`]|$)`).MatchString(source) {
						t.Errorf("recommendation cut inside a word (%q): %q", w, l)
					}
				}
			}
			status := lines[len(lines)-2]
			if regexp.MustCompile(`recompiles? \S`).MatchString(status) {
				t.Errorf("the status bar runs its parts together: %q", status)
			}
			bar := lines[1]
			for _, on := range []string{"graph_breaks", "recompiles", "perf_hints", "cudagraphs"} {
				if !strings.Contains(bar, "[x]"+on) && !regexp.MustCompile(` on: (\S+,)*`+on+`\b`).MatchString(bar) {
					t.Errorf("the preset bar hides %s: %q", on, bar)
				}
			}
			if i, j := strings.Index(lines[0], "("), strings.Index(lines[0], ")"); i >= 0 && j > i {
				for _, name := range strings.Split(lines[0][i+1:j], ",") {
					if name != "…" && !strings.Contains(",graph_breaks,recompiles,perf_hints,cudagraphs,", ","+name+",") {
						t.Errorf("the header cuts a log name (%q): %q", name, lines[0])
					}
				}
			}
			if sz[0] >= 120 && !regexp.MustCompile(`\(\S*\bcudagraphs\b`).MatchString(lines[0]) {
				t.Errorf("the header hides the cudagraphs logs of preset cudagraphs: %q", lines[0])
			}
		})
	}
}

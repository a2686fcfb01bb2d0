package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// sizeMatrix covers the narrow stacked layout, the switch at 100 columns and big terminals.
var sizeMatrix = [][2]int{
	{40, 10}, {60, 16}, {80, 24}, {81, 25}, {99, 30}, {100, 30}, {101, 31}, {120, 32}, {132, 43}, {160, 48},
	{200, 60}, {250, 70}, {300, 80},
}

// states puts a model on each screen and in each overlay.
var states = []struct {
	name string
	keys []string
}{
	{"main", nil}, {"recompiles focused", []string{"tab", "down", "down"}}, {"preset bar", []string{"tab", "tab", "right"}},
	{"detail", []string{"down", "enter", "down"}}, {"detail scrolled", []string{"enter", "pgdown", "pgdown"}},
	{"log", []string{"l"}}, {"log search", []string{"l", "/", "r", "a", "n", "k"}}, {"log scrolled right", []string{"l", "g", "right", "right"}},
	{"runs", []string{"h"}}, {"diff", []string{"d"}}, {"ranks", []string{"R"}}, {"timeline", []string{"t"}},
	{"help", []string{"?"}}, {"guide", []string{"n"}}, {"picker", []string{"p"}}, {"filter typing", []string{"/", "p", "r"}},
	{"filter empty", []string{"/", "z", "z", "z", "enter"}}, {"quit prompt", []string{"q"}},
}

func TestEveryScreenFitsEverySize(t *testing.T) {
	for _, sz := range sizeMatrix {
		for _, st := range states {
			for _, stall := range []bool{false, true} {
				m := liveModel(t, sz[0], sz[1])
				m.opt.color, m.th = true, newTheme(true, sz[0]%2 == 0) // both backgrounds
				m.opt.spec.Nproc = 2
				feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
				r := feedRun(t, m, 2, "r05_dist_c10d.triage.log", "recompiles", "recompiles_verbose,graph_breaks,dynamic", -1)
				if stall {
					m.Update(batchMsg{session.Batch{RunID: r.id, Log: r.log, Notes: []session.Note{{Kind: session.EventStalled, Since: fixedNow.Add(-9e10)}}}})
				}
				press(m, st.keys...)
				checkFits(t, fmt.Sprintf("%dx%d %s stall=%v", sz[0], sz[1], st.name, stall), m.render(), sz[0], sz[1])
			}
		}
	}
}

func TestResizeRedrawsAtTheNewSize(t *testing.T) {
	m := liveModel(t, 120, 32)
	feedRun(t, m, 1, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
	for _, sz := range [][2]int{{80, 24}, {250, 70}, {99, 40}, {45, 12}, {120, 32}} {
		m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		checkFits(t, fmt.Sprintf("resized to %dx%d", sz[0], sz[1]), m.render(), sz[0], sz[1])
	}
}

func TestTooSmallTerminalSaysSo(t *testing.T) {
	m := liveModel(t, 30, 8)
	screen := m.render()
	checkFits(t, "30x8", screen, 30, 8)
	if !strings.Contains(screen, "too small") {
		t.Errorf("no message:\n%s", screen)
	}
}

// checkFits: exactly h lines, none wider than w.
func checkFits(t *testing.T, name, screen string, w, h int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) != h {
		t.Fatalf("%s: %d lines, want %d:\n%s", name, len(lines), h, ansi.Strip(screen))
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Fatalf("%s: line %d is %d cells wide, terminal %d:\n%s", name, i, lw, w, ansi.Strip(l))
		}
	}
}

// A command with newlines in it (python -c 'a\nb') keeps the header on one line: the screen is exactly the
// terminal's height and the header names the run.
func TestCommandWithNewlinesKeepsTheHeaderOneLine(t *testing.T) {
	m := newModel(options{mode: modeRun, spec: runs.Spec{Argv: []string{"python3", "-c", "import time\nfor i in range(3):\n    print(i)"},
		Preset: "breaks"}, set: builtinSet(t), noLaunch: true})
	m.now = func() time.Time { return fixedNow }
	t.Cleanup(m.sess.Stop)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	lines := strings.Split(plain(m), "\n")
	if len(lines) != 24 || !strings.Contains(lines[0], "import time for i in range(3)") {
		t.Fatalf("%d lines, header %q", len(lines), lines[0])
	}
}

package tui

import (
	"image/color"
	"regexp"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

var colorSGR = regexp.MustCompile(`\x1b\[[0-9;]*(38|48);[25];`)

func TestNoColorDrawsWithoutColours(t *testing.T) {
	m := liveModel(t, 120, 32) // colour off, as with NO_COLOR or --no-color
	feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
	for _, keys := range [][]string{nil, {"/", "p"}, {"esc", "R"}, {"esc", "t"}} {
		press(m, keys...)
		if s := m.render(); colorSGR.MatchString(s) {
			t.Fatalf("colour codes without colour after %v: %q", keys, colorSGR.FindString(s))
		}
	}
	// focus and selection still show: heavy border and the ▶ mark
	if s := plain(m); !regexp.MustCompile(`┏━|▶`).MatchString(s) {
		t.Errorf("focus is not visible without colour:\n%s", s)
	}
}

func TestColoursFollowTheBackground(t *testing.T) {
	m := liveModel(t, 120, 32)
	m.opt.color = true
	feedRun(t, m, 1, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
	m.Update(tea.BackgroundColorMsg{Color: color.Black})
	dark := m.render()
	if !m.dark || !colorSGR.MatchString(dark) {
		t.Fatal("a black background should give the dark colour theme")
	}
	m.Update(tea.BackgroundColorMsg{Color: color.White})
	light := m.render()
	if m.dark || light == dark {
		t.Fatal("a white background should switch to the light theme")
	}
	if ansi.Strip(light) != ansi.Strip(dark) {
		t.Error("the background changes colours, not text")
	}
}

package tui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// goldenSizes are the sizes the main screen's golden files are kept at (colour stripped).
var goldenSizes = [][2]int{{80, 24}, {100, 30}, {120, 32}, {250, 70}}

func TestGoldenMain(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := liveModel(t, sz[0], sz[1])
			feedRun(t, m, 3, "gb_recompile.triage.log", "breaks", "graph_breaks,recompiles", 0)
			golden.RequireEqual(t, plain(m))
		})
	}
}

func TestGoldenTwoRanks(t *testing.T) {
	for _, sz := range goldenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := liveModel(t, sz[0], sz[1])
			m.opt.spec.Nproc = 2
			feedRun(t, m, 2, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", -1)
			golden.RequireEqual(t, plain(m))
		})
	}
}

func TestGoldenScreens(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []string
	}{
		{"detail", []string{"down", "enter"}},
		{"log", []string{"l", "g"}},
		{"ranks", []string{"R"}},
		{"timeline", []string{"t"}},
		{"guide", []string{"n"}},
		{"picker", []string{"p"}},
		{"filter", []string{"tab", "/", "s", "h"}},
		{"help", []string{"?"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := liveModel(t, 100, 30)
			feedRun(t, m, 2, "r05_dist_c10d.triage.log", "breaks", "graph_breaks,recompiles", 0)
			press(m, c.keys...)
			golden.RequireEqual(t, plain(m))
		})
	}
}

func TestGoldenOpen(t *testing.T) {
	m := openModel(t, 100, 30, "r07_fullgraph.triage.log")
	golden.RequireEqual(t, plain(m))
}

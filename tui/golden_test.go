package tui

import (
	"fmt"
	"os"
	"path/filepath"
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

// The header names the path as given: the log (the one copy under the repo's testdata/) is opened as
// testdata/r07_fullgraph.triage.log, from a directory that holds it there, as the golden file shows it.
func TestGoldenOpen(t *testing.T) {
	data, err := os.ReadFile(testdataPath(t, "r07_fullgraph.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "testdata"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "testdata", "r07_fullgraph.triage.log"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var m *Model
	t.Run("open", func(t *testing.T) {
		t.Chdir(dir) // until the subtest ends: the golden file is read in tui/testdata
		m = openPath(t, 100, 30, filepath.Join("testdata", "r07_fullgraph.triage.log"))
	})
	golden.RequireEqual(t, plain(m))
}

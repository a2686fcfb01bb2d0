package tui

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/story"
	"github.com/torchtriage/torchtriage/triage/text"
	"github.com/torchtriage/torchtriage/tui/spark"
)

// floorStore is a store of six recorded runs whose trend has every kind of point the bringup log's trend line
// words: exact counts, floors of runs stopped by the tool ("≥1", and "≥0" of runs stopped before they compiled:
// lagging-rank, stopped-in-import, stopped-dist-hang, the newest among them), "at least 1" of a silenced log
// ("≥1") and no count ("–": recompiles not in that log). The log's trend:
// graph breaks 2 → ≥1 → ≥0 → ≥1 → 0 → ≥0 · recompiles 3 → ≥0 → ≥0 → – → 8 → ≥0.
func floorStore(t *testing.T) string {
	t.Helper()
	rec := filepath.Join("..", "testdata", "recorded")
	store := t.TempDir()
	for i, src := range [][2]string{
		{"baseline-compile", "0008-breaks"}, {"lagging-rank", "0001-breaks"}, {"stopped-in-import", "0001-breaks"},
		{"silenced-rank", "0001-breaks"}, {"train-loop", "0001-recompiles"}, {"stopped-dist-hang", "0002-breaks"},
	} {
		copyRun(t, store, i+1, filepath.Join(rec, src[0], "runs", src[1]))
	}
	return store
}

// logTrend is the bringup log's trend line of store (`torchtriage log`), each series' points as the log words
// them ("2", "≥0", "–"), by the series' name.
func logTrend(t *testing.T, store string) map[string][]string {
	t.Helper()
	s, err := story.Build(store)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	story.WriteText(&buf, s, text.Options{Width: 1000})
	out := map[string][]string{}
	for _, l := range strings.Split(buf.String(), "\n") {
		_, tr, ok := strings.Cut(l, ": graph breaks ")
		if !ok {
			continue
		}
		for _, series := range strings.Split("graph breaks "+tr, " · ") {
			for _, name := range []string{"graph breaks", "recompiles"} {
				if pts, ok := strings.CutPrefix(series, name+" "); ok {
					out[name] = strings.Split(pts, " → ")
				}
			}
		}
	}
	if len(out) != 2 {
		t.Fatalf("the log has no trend line of both series:\n%s", buf.String())
	}
	return out
}

// tuiTrend is one series of the runs view's trend on screen: the cells drawn, oldest first, and the newest
// value after "→" ("" where the screen has no such series).
func tuiTrend(screen, name string) (cells []rune, newest string) {
	for _, l := range strings.Split(screen, "\n") {
		_, rest, ok := strings.Cut(l, " "+name+" ")
		if !ok {
			continue
		}
		spark, after, ok := strings.Cut(rest, " → ")
		if !ok {
			continue
		}
		newest, _, _ = strings.Cut(after, " ")
		return []rune(strings.TrimPrefix(spark, "…")), newest
	}
	return nil, ""
}

// A trend cell says what the log's point says: a gap only for "–", an ordinary bar only for an exact count, and
// for a floor ("≥N") a cell that is neither (not a gap: a floor of 0 is a count, not "not counted").
func cellSays(c rune) string {
	switch {
	case c == ' ':
		return "–"
	case slices.Contains(spark.Blocks, c):
		return "exact"
	}
	return "floor"
}

func pointSays(p string) string {
	switch {
	case p == "–":
		return "–"
	case strings.HasPrefix(p, "≥"):
		return "floor"
	}
	return "exact"
}

// The runs view's trend says of every run what the bringup log's trend line says of it, from the same store: a
// floor where the log says "≥N" (a floor of 0 too, which it drew as a gap), a gap only where the log says "–",
// the newest value as the log words it (it read "→ –" where the log says "≥0"), and a legend of the marks it
// draws.
func TestRunsTrendSaysWhatTheLogsTrendSays(t *testing.T) {
	store := floorStore(t)
	want := logTrend(t, store)
	for _, sz := range [][2]int{{80, 24}, {120, 32}, {160, 48}} {
		m := storeModel(t, sz[0], sz[1], store)
		openRuns(t, m)
		screen := plain(m)
		what := fmt.Sprintf("%dx%d", sz[0], sz[1])
		for _, name := range []string{"graph breaks", "recompiles"} {
			cells, newest := tuiTrend(screen, name)
			pts := want[name]
			if len(cells) != len(pts) {
				t.Errorf("%s %s: %d cells %q for the log's %d points %q:\n%s", what, name, len(cells), string(cells), len(pts), pts, screen)
				continue
			}
			for i, c := range cells {
				if cellSays(c) != pointSays(pts[i]) {
					t.Errorf("%s %s run %d: the log says %q, the trend draws %q (%s)", what, name, i+1, pts[i], c, cellSays(c))
				}
			}
			if last := pts[len(pts)-1]; newest != last {
				t.Errorf("%s %s: the newest value reads %q, the log's %q:\n%s", what, name, newest, last, screen)
			}
		}
		if !strings.Contains(screen, "≥") || !strings.Contains(screen, "at least") || !strings.Contains(screen, "no count") {
			t.Errorf("%s: no legend of the trend's marks:\n%s", what, screen)
		}
	}
}

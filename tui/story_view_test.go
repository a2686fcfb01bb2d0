package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/story"
)

// The runs view with the story, a 300-character note and the sparkline fits every size, building or not, and
// with the note input open.
func TestRunsStoryFitsEverySize(t *testing.T) {
	store := bringupStore(t)
	long := strings.TrimSpace(strings.Repeat("switched to funcol and a much longer explanation ", 7))[:300]
	if _, err := story.SetNote(filepath.Join(store, "0002-breaks"), long); err != nil {
		t.Fatal(err)
	}
	story, err := story.BuildWith(store, builtinSet(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range sizeMatrix {
		for _, st := range []struct {
			name  string
			built bool
			keys  []string
		}{{"building", false, nil}, {"built", true, nil}, {"selected long note", true, []string{"down"}},
			{"note input", true, []string{"down", "N"}}, {"rebuilding", true, []string{"h", "h"}}} {
			m := storyModel(t, sz[0], sz[1], store)
			m.opt.color, m.th = true, newTheme(true, sz[0]%2 == 0)
			press(m, "h")
			if st.built {
				m.Update(storyMsg{gen: m.storyv.gen, story: story})
			}
			press(m, st.keys...)
			checkFits(t, fmt.Sprintf("%dx%d %s", sz[0], sz[1], st.name), m.render(), sz[0], sz[1])
		}
	}
}

func TestGoldenRunsStory(t *testing.T) {
	store := bringupStore(t)
	if _, err := story.SetNote(filepath.Join(store, "0002-breaks"), "switched to funcol"); err != nil {
		t.Fatal(err)
	}
	for _, sz := range [][2]int{{80, 24}, {120, 32}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := storyModel(t, sz[0], sz[1], store)
			openRuns(t, m)
			golden.RequireEqual(t, plain(m))
		})
	}
}

func TestSparkline(t *testing.T) {
	for _, c := range []struct {
		in     []int
		floors []bool
		want   string
	}{
		{[]int{1, 0, -1}, nil, "█▁ "}, {[]int{0, 0}, nil, "▁▁"}, {[]int{3, 1, 0, -1, 6}, nil, "▅▃▁ █"}, {[]int{-1, -1}, nil, "  "},
		{nil, nil, ""}, {[]int{0, 0, -1}, []bool{true, false, false}, "⣀▁ "}, {[]int{8, 1, 4, 8}, []bool{false, true, true, true}, "█⣤⣶⣿"},
	} {
		if got := sparkline(c.in, c.floors); got != c.want {
			t.Errorf("sparkline(%v, %v) = %q, want %q", c.in, c.floors, got, c.want)
		}
	}
	var many []int
	for i := 1; i <= 20; i++ {
		many = append(many, i)
	}
	plainSt := newTheme(false, true).plain
	if got, mk := sparkSeries("breaks", many, nil, 8, plainSt); got != "breaks …▆▆▇▇▇███ → 20" || mk.legend() != "" {
		t.Errorf("a long series keeps its newest values: %q %q", got, mk.legend())
	}
	// the newest value is the newest run's, "–" where it has none, as the bringup log's trend says (it skipped
	// the gap and showed an older run's 2 as the latest)
	if got, mk := sparkSeries("breaks", []int{2, -1}, nil, 8, plainSt); got != "breaks █  → –" || mk.legend() != sparkLegendGap {
		t.Errorf("the newest value of a gap: %q %q", got, mk.legend())
	}
	// a run that did not complete counted only what it reached: its counts are floors, drawn dotted, a floor of 0
	// too (⣀, not a gap: the log says "≥0", not "–"), and the newest value reads as the log's "≥1"; it drew the
	// floor of 0 as a gap and the floor of 1 as an exact bar
	if got, mk := sparkSeries("breaks", []int{2, 0, 1}, []bool{false, true, true}, 8, plainSt); got != "breaks █⣀⣶ → ≥1" || mk.legend() != sparkLegendFloor {
		t.Errorf("stopped runs: %q %q", got, mk.legend())
	}
	if got, _ := sparkSeries("breaks", []int{2, 0}, []bool{false, true}, 8, plainSt); got != "breaks █⣀ → ≥0" {
		t.Errorf("a newest floor of 0 reads as the log's ≥0: %q", got)
	}
	// the legend names the marks the drawn points show, not those cut off
	if _, mk := sparkSeries("breaks", []int{0, -1, 1, 2}, []bool{true}, 2, plainSt); mk.legend() != "" {
		t.Errorf("a legend of marks cut off: %q", mk.legend())
	}
}

// Through the runner: a demo run in a temporary store, the runs view opened while it runs, the story rebuilt
// when it ends, and a note saved to its meta.json.
func TestDemoSessionStoryAndNote(t *testing.T) {
	m := demoModel(t, "r05_dist_c10d", 120, 32)
	h := newHarness(t, m)
	h.until("the run to start", func() bool { return m.cur != nil })
	h.key("h")
	h.until("the run to finish and the story to be rebuilt", func() bool {
		s := m.storyv.s
		return finished(m) && !m.storyv.building() && s != nil && len(s.Runs) == 1 && s.Runs[0].State == "exited"
	})
	if s := plain(m); !strings.Contains(s, "2 ranks") || !strings.Contains(s, "graph breaks █ → 1") {
		t.Errorf("the story's counts and sparkline are not shown:\n%s", s)
	}
	h.key("N", "c", "1", "0", "d", "enter")
	h.until("the note to be shown", func() bool { return strings.Contains(plain(m), "“c10d”") && !m.storyv.building() })
	if meta, err := runs.LoadRun(m.cur.meta.Dir); err != nil || meta.Note != "c10d" {
		t.Errorf("meta.json note %q %v", meta.Note, err)
	}
	h.send(tea.KeyPressMsg{Code: 'q', Text: "q"})
}

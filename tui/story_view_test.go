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

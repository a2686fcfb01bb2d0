package tui

import (
	"cmp"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/story"
)

// storyState is the session story (story.Build of the run store) the runs view shows. Builds are numbered:
// a result older than the one shown is dropped, and the view says "building…" while a newer one is under way.
type storyState struct {
	s    *story.Story
	byID map[int]*story.Run
	gen  int    // the newest build asked for
	have int    // the build on screen
	err  string // the newest build failed (the previous story, if any, stays)
}

func (st *storyState) building() bool { return st.gen > st.have }

// storyMsg carries a built story; gen says which build it is.
type storyMsg struct {
	gen   int
	story *story.Story
	err   error
}

// storeDir is the run store of the session; "" for opened logs.
func (m *Model) storeDir() string {
	if m.opt.store == nil {
		return ""
	}
	return m.opt.store.Dir
}

// buildStory reads the store off the UI goroutine (nil without a store: the view shows the runs in memory).
func (m *Model) buildStory() tea.Cmd {
	dir := m.storeDir()
	if dir == "" {
		return nil
	}
	m.storyv.gen++
	gen, pbs := m.storyv.gen, m.pbs
	return func() tea.Msg {
		set, _ := pbs()
		s, err := story.BuildWith(dir, set)
		return storyMsg{gen: gen, story: s, err: err}
	}
}

// rebuildStory rebuilds while the runs view is open (a run ended, a metric or a note was written); otherwise
// opening the view builds it.
func (m *Model) rebuildStory() tea.Cmd {
	if m.screen != screenRuns {
		return nil
	}
	return m.buildStory()
}

// applyStory takes a built story, keeping the runs view's cursor on the run it was on.
func (m *Model) applyStory(msg storyMsg) {
	st := &m.storyv
	if msg.gen <= st.have {
		return
	}
	st.have = msg.gen
	if msg.err != nil {
		st.err = msg.err.Error()
		return
	}
	sel := -1
	if rows := m.runRows(); m.runsv.idx < len(rows) {
		sel = rows[m.runsv.idx].id
	}
	st.s, st.err = msg.story, ""
	st.byID = make(map[int]*story.Run, len(msg.story.Runs))
	for i := range msg.story.Runs {
		st.byID[msg.story.Runs[i].ID] = &msg.story.Runs[i]
	}
	for i, r := range m.runRows() {
		if r.id == sel {
			m.runsv.idx = i
		}
	}
}

// runRow is one run of the runs view: in memory (this session), in the story (the store), or both.
type runRow struct {
	id   int
	view *runView   // nil: a run of an earlier session, only in the store
	st   *story.Run // nil: no story (no store, not built yet, or started since)
}

// runRows lists the runs newest first: the story's runs and this session's, merged by run number. Without a
// story it is the runs in memory, as they were added.
func (m *Model) runRows() []runRow {
	var rows []runRow
	for _, r := range m.newestFirst() {
		rows = append(rows, runRow{id: r.id, view: r, st: m.storyv.byID[r.id]})
	}
	if m.storyv.s == nil {
		return rows
	}
	for i := range m.storyv.s.Runs {
		sr := &m.storyv.s.Runs[i]
		if m.runByID(sr.ID) == nil {
			rows = append(rows, runRow{id: sr.ID, st: sr})
		}
	}
	slices.SortStableFunc(rows, func(a, b runRow) int { return cmp.Compare(b.id, a.id) })
	return rows
}

// dir is the run's directory in the store ("" when unknown).
func (r runRow) dir() string {
	if r.st != nil && r.st.Dir != "" {
		return r.st.Dir
	}
	if r.view != nil && r.view.hasMeta {
		return r.view.meta.Dir
	}
	return ""
}

// note is the run's note: the story's (what meta.json holds), else what this session knows.
func (r runRow) note() string {
	if r.st != nil {
		return r.st.Note
	}
	if r.view != nil {
		return r.view.meta.Note
	}
	return ""
}

// live: the run is still going in this session.
func (r runRow) live() bool { return r.view != nil && !r.view.done }

package tui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// runsState: cursor in the runs list (newest first) and up to two runs marked for a diff.
type runsState struct {
	idx    int
	marked []int
}

// newestFirst lists the session's runs, newest first.
func (m *Model) newestFirst() []*runView {
	out := slices.Clone(m.runs)
	slices.Reverse(out)
	return out
}

// runsKey: enter shows a run, space marks it for d (diff of the two marked, or of the selected and the one before),
// N edits its note. Runs of earlier sessions (only in the store) have no findings in memory to show or diff.
func (m *Model) runsKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	rows := m.runRows()
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		m.runsv.idx = max(m.runsv.idx-1, 0)
		return nil, true
	case key.Matches(msg, k.Down):
		m.runsv.idx = min(m.runsv.idx+1, max(len(rows)-1, 0))
		return nil, true
	case len(rows) == 0:
		return nil, false
	}
	m.runsv.idx = min(m.runsv.idx, len(rows)-1)
	r := rows[m.runsv.idx]
	switch {
	case key.Matches(msg, k.Note):
		m.startNote(r)
	case r.view == nil && (key.Matches(msg, k.Enter) || key.Matches(msg, k.Mark) || key.Matches(msg, k.Diff)):
		m.flash = fmt.Sprintf("run %d is from an earlier session: torchtriage open %s shows it, torchtriage diff compares it",
			r.id, r.dir())
	case key.Matches(msg, k.Enter):
		m.show(r.view)
		m.screen = screenMain
	case key.Matches(msg, k.Mark):
		if i := slices.Index(m.runsv.marked, r.id); i >= 0 {
			m.runsv.marked = slices.Delete(m.runsv.marked, i, i+1)
		} else {
			m.runsv.marked = append(m.runsv.marked, r.id)
			if len(m.runsv.marked) > 2 {
				m.runsv.marked = m.runsv.marked[1:]
			}
		}
	case key.Matches(msg, k.Diff):
		if len(m.runsv.marked) != 2 {
			m.show(r.view)
		}
		m.diffLatest()
	default:
		return nil, false
	}
	return nil, true
}

// runsBody is the session story: the sparkline of breaks and recompiles, then each run (newest first) with its
// state, counts, metric and note, what it fixed or broke against its base run and what changed since the run
// before. Without a run store it lists the runs in memory.
func (m *Model) runsBody(w, h int) []string {
	th := m.th
	rows := m.runRows()
	inner := w - 2
	head := m.storyHead(inner, h-2)
	title := fmt.Sprintf("Runs · %d this session · newest first", len(m.runs))
	if s := m.storyv.s; s != nil {
		title = fmt.Sprintf("Runs · session log · %d stored, %d this session · newest first", len(s.Runs), len(m.runs))
	}
	if len(rows) == 0 {
		if !m.storyv.building() {
			head = append(head, " no runs yet")
		}
		return th.box(title, head, w, h, true)
	}
	m.runsv.idx = min(m.runsv.idx, len(rows)-1)
	var lines []string
	at := 0
	for i, r := range rows {
		if i == m.runsv.idx {
			at = len(lines)
		}
		lines = append(lines, m.runLines(r, i == m.runsv.idx, inner)...)
	}
	lines = append(lines, "", th.dim.Render(" • on screen  ◆ marked for diff (space)  d diffs the two marked runs, or the "+
		"selected one with the run before"))
	body := append(head, scrollTo(lines, at, h-2-len(head))...)
	return th.box(title, body, w, h, true)
}

// runState is a short state text without colour.
func runState(r *runView) string {
	if !r.done {
		if r.stalled {
			return "stalled"
		}
		return "running"
	}
	me := r.meta
	switch {
	case me.Signal != "":
		return fmt.Sprintf("%s (%s) %s", me.State, me.Signal, clock(me.Duration()))
	case me.ExitCode != nil:
		return fmt.Sprintf("%s %d · %s", me.State, *me.ExitCode, clock(me.Duration()))
	}
	return string(me.State)
}

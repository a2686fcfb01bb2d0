package tui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/report"
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

// runAt is the run under the runs view's cursor; a run of an earlier session (only in the store) has no findings
// in memory to show or diff, and the status line says which command does (to show it, or to diff it: diff).
func (m *Model) runAt(diff bool) *runView {
	rows := m.runRows()
	if len(rows) == 0 {
		return nil
	}
	r := rows[min(m.runsv.idx, len(rows)-1)]
	if r.view == nil {
		m.flash = fmt.Sprintf("run %d is from an earlier session: torchtriage open %s shows it", r.id, r.dir())
		if diff {
			m.flash = fmt.Sprintf("run %d is from an earlier session: torchtriage diff %s B compares it with B", r.id, r.dir())
		}
	}
	return r.view
}

// showRun is enter in the runs view: the run goes on the main screen; a run of an earlier session is read from
// the store first (as open reads it, off the UI goroutine), then shown in place.
func (m *Model) showRun() tea.Cmd {
	rows := m.runRows()
	if len(rows) == 0 {
		return nil
	}
	if row := rows[min(m.runsv.idx, len(rows)-1)]; row.view == nil && row.dir() != "" {
		id, dir, an, pbs := row.id, row.dir(), m.an, m.pbs
		m.flash = fmt.Sprintf("reading run %d…", id)
		return func() tea.Msg { pbs(); return storedRunMsg{id: id, loaded: loadPaths([]string{dir}, an)} }
	}
	if r := m.runAt(false); r != nil {
		m.show(r)
		m.screen = screenMain
	}
	return nil
}

// storedRunMsg is a run of an earlier session, read from its directory in the store.
type storedRunMsg struct {
	id     int
	loaded loadedMsg
}

// storedRun shows a run of an earlier session read from the store, among the session's runs in id order.
func (m *Model) storedRun(msg storedRunMsg) {
	if msg.loaded.err != nil {
		m.flash = fmt.Sprintf("cannot read run %d: %v", msg.id, msg.loaded.err)
		return
	}
	if m.flash == fmt.Sprintf("reading run %d…", msg.id) {
		m.flash = ""
	}
	r := m.runByID(msg.id)
	if r == nil {
		r = m.run(msg.id)
		slices.SortStableFunc(m.runs, func(a, b *runView) int { return a.id - b.id })
	}
	b := msg.loaded.b
	r.snap, r.log, r.done = snapshotOf(b, nil), b.Log, true
	r.probes, r.parity, r.probe.torch = b.Probes, report.ConfigParity(b.Probes), msg.loaded.torch
	if me := msg.loaded.meta; me != nil {
		r.meta, r.hasMeta, r.name, r.start = *me, true, me.Name, me.Start
	}
	m.cur = nil // show refreshes the lists for it
	m.show(r)
	m.screen = screenMain
}

// markRun is space in the runs view: mark the run for d (two at most; a third replaces the oldest).
func (m *Model) markRun() {
	r := m.runAt(true)
	if r == nil {
		return
	}
	if i := slices.Index(m.runsv.marked, r.id); i >= 0 {
		m.runsv.marked = slices.Delete(m.runsv.marked, i, i+1)
		return
	}
	m.runsv.marked = append(m.runsv.marked, r.id)
	if len(m.runsv.marked) > 2 {
		m.runsv.marked = m.runsv.marked[1:]
	}
}

// noteRun is N in the runs view: edit the note of the run under the cursor.
func (m *Model) noteRun() {
	if rows := m.runRows(); len(rows) > 0 {
		m.startNote(rows[min(m.runsv.idx, len(rows)-1)])
	}
}

// diffKey is d: the two runs marked in the runs view, else the run on screen (in the runs view the selected
// one) with the run before it.
func (m *Model) diffKey() {
	if m.screen == screenRuns && len(m.runsv.marked) != 2 {
		r := m.runAt(true)
		if r == nil {
			return
		}
		m.show(r)
	}
	m.diffLatest()
}

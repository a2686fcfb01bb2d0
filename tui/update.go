package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/runner"
)

// Update handles one message. Commands it returns do the slow work (launching, loading, waiting for batches).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = max(msg.Width, 1), max(msg.Height, 1)
	case tea.BackgroundColorMsg:
		m.dark = msg.IsDark()
		m.th = newTheme(m.opt.color, m.dark)
		clear(m.pbText)
	case batchMsg:
		return m, tea.Batch(m.applyBatch(msg), m.sess.feed.listen())
	case startedMsg:
		return m, m.started(msg)
	case loadedMsg:
		m.loaded(msg)
	case probesMsg:
		r := m.run(msg.runID)
		r.probes, r.parity = msg.infos, msg.parity
		if snap, b := r.snap, m.build; snap != nil && len(msg.infos) > 0 {
			return m, func() tea.Msg { return snapMsg{runID: msg.runID, snap: b.withProbes(snap, msg.infos)} }
		}
	case snapMsg:
		r := m.run(msg.runID)
		r.snap = msg.snap
		if r == m.cur {
			m.refreshLists()
		}
	case tickMsg:
		m.ticking = false
		if m.live() {
			return m, m.tick()
		}
	case stacksMsg:
		m.flash = msg.text
	case metricMsg:
		v := msg.value
		m.run(msg.runID).meta.Metric = &v
		return m, m.rebuildStory()
	case storyMsg:
		m.applyStory(msg)
	case noteSavedMsg:
		return m, m.noteSaved(msg)
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.MouseWheelMsg:
		m.wheel(msg)
	}
	return m, nil
}

// applyBatch takes one run's news from the feed.
func (m *Model) applyBatch(b batchMsg) tea.Cmd {
	r := m.run(b.runID)
	if b.snap != nil {
		r.snap = b.snap
	}
	r.log = b.log
	if b.meta != nil {
		r.meta, r.hasMeta = *b.meta, true
		r.name = b.meta.Name
		if !b.meta.Start.IsZero() {
			r.start = b.meta.Start
		}
	}
	var cmds []tea.Cmd
	for _, n := range b.notes {
		switch n.kind {
		case runner.EventStalled:
			r.stalled, r.stallSince, r.dismissed = true, n.since, false
		case runner.EventResumed:
			r.stalled = false
		case runner.EventError:
			r.err = n.text
		case runner.EventRelaunched:
			r.note = n.text
			if n.meta != nil {
				r.start = n.meta.Start
				if prev := m.runByName(n.meta.RelaunchedFrom); prev != nil {
					r.sig = prev.sig
				}
			}
			m.show(r)
			cmds = append(cmds, m.tick())
		case runner.EventExited:
			r.stalled = false
		}
	}
	if b.final {
		r.done = true
		if r.hasMeta && r.meta.Dir != "" {
			cmds = append(cmds, readProbes(r.id, r.meta.Dir))
		}
		cmds = append(cmds, m.recordMetric(r), m.rebuildStory())
	}
	if m.cur == nil {
		m.show(r)
	} else if r == m.cur {
		m.refreshLists()
	}
	return tea.Batch(cmds...)
}

// started records a launch; a failed launch is shown in the banner line.
func (m *Model) started(s startedMsg) tea.Cmd {
	if s.err != nil {
		m.flash = "launch failed: " + s.err.Error()
		if s.run == nil {
			return nil
		}
	}
	if s.err == nil {
		m.flash = ""
	}
	m.sess.handles[s.run.ID] = s.run
	r := m.run(s.run.ID)
	meta := s.run.Meta()
	if !r.hasMeta {
		r.meta, r.hasMeta = meta, true
	}
	r.name, r.start, r.sig = meta.Name, meta.Start, m.pre.signature()
	if s.err != nil {
		r.done, r.err = true, s.err.Error()
	}
	m.show(r)
	return m.tick()
}

// show puts a run on screen.
func (m *Model) show(r *runView) {
	if m.cur == r {
		return
	}
	m.cur = r
	m.refreshLists()
}

// refreshLists gives both lists the current run's rows.
func (m *Model) refreshLists() {
	var s *snapshot
	if m.cur != nil {
		s = m.cur.snap
	}
	for p := range m.lists {
		m.lists[p].setRows(s.list(pane(p)))
	}
}

func (m *Model) runByName(name string) *runView {
	for _, r := range m.runs {
		if name != "" && r.name == name {
			return r
		}
	}
	return nil
}

// relaunch starts the next run with the preset bar's choice (cancelling a run that is still going).
func (m *Model) relaunch() tea.Cmd {
	if m.opt.mode == modeOpen {
		m.flash = "opened logs cannot be rerun: use torchtriage run -- CMD"
		return nil
	}
	for _, r := range m.runs {
		if !r.done {
			if h := m.sess.handle(r.id); h != nil {
				h.Cancel()
			}
		}
	}
	m.flash = fmt.Sprintf("relaunching with preset %s…", m.pre.name)
	return m.sess.start(m.launchSpec())
}

// snapMsg replaces a run's snapshot (re-analysed with its probe files).
type snapMsg struct {
	runID int
	snap  *snapshot
}

// stacksMsg reports a stack-dump request.
type stacksMsg struct{ text string }

func (m *Model) dumpStacks() tea.Cmd {
	h := m.sess.handle(m.cur.id)
	if h == nil {
		return nil
	}
	return func() tea.Msg {
		n, err := h.DumpStacks()
		if err != nil {
			return stacksMsg{"stack dump: " + err.Error()}
		}
		return stacksMsg{fmt.Sprintf("asked %d process(es) for their stacks: see the log (l)", n)}
	}
}

package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/session"
)

// Update handles one message, then lays the screens out (layout.go). Commands it returns do the slow work
// (launching, loading, waiting for batches).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.layout()
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = max(msg.Width, 1), max(msg.Height, 1)
	case tea.BackgroundColorMsg:
		m.dark = msg.IsDark()
		m.th = newTheme(m.opt.color, m.dark)
		clear(m.pbText)
	case batchMsg:
		cmd := m.applyBatch(msg.b)
		if m.quitting() && !m.live() {
			return tea.Quit
		}
		return tea.Batch(cmd, m.listen())
	case quitTickMsg:
		if !m.live() {
			return tea.Quit
		}
		return m.quitTick()
	case startedMsg:
		return m.started(msg)
	case storedRunMsg:
		m.storedRun(msg)
	case loadedMsg:
		m.loaded(msg)
	case tickMsg:
		m.ticking = false
		if m.live() {
			return tea.Batch(m.tick(), m.probeDue())
		}
	case probeMsg:
		m.probed(msg)
	case stacksMsg:
		m.flash = msg.text
	case searchMsg:
		m.logv.found(m, msg)
	case metricMsg:
		setMetric(&m.run(msg.runID).meta, msg.stats)
		return m.rebuildStory()
	case storyMsg:
		m.applyStory(msg)
	case ladderLineMsg:
		if m.lad != nil && !m.lad.stopped {
			m.lad.line = "backend ladder: " + string(msg)
		}
		if m.lad != nil {
			return waitLadder(m.lad.ch)
		}
	case ladderDoneMsg:
		return m.ladderEnded(msg)
	case noteSavedMsg:
		return m.noteSaved(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseWheelMsg:
		m.wheel(msg)
	}
	return nil
}

// applyBatch takes one run's news from the session.
func (m *Model) applyBatch(b session.Batch) tea.Cmd {
	r := m.run(b.RunID)
	r.snap = snapshotOf(b, r.snap)
	r.log = b.Log
	r.out = b.Output
	if b.Meta != nil {
		r.meta, r.hasMeta = *b.Meta, true
		r.name = b.Meta.Name
		if !b.Meta.Start.IsZero() {
			r.start = b.Meta.Start
		}
	}
	var cmds []tea.Cmd
	for _, n := range b.Notes {
		switch n.Kind {
		case session.EventStalled:
			r.stalled, r.stallSince, r.dismissed, r.stallNote = true, n.Since, false, n.Text
			r.probe.reading = r.probe.reading && m.now().Sub(r.probe.readAt) < probeEvery
			cmds = append(cmds, m.readProbe(r))
		case session.EventResumed:
			r.stalled = false
		case session.EventError:
			r.err = n.Text
		case session.EventRelaunched:
			r.note = n.Text
			if n.Meta != nil {
				r.start = n.Meta.Start
				if prev := m.runByName(n.Meta.RelaunchedFrom); prev != nil {
					r.sig = prev.sig
				}
			}
			m.show(r)
			cmds = append(cmds, m.tick())
		case session.EventExited:
			r.stalled = false
		}
	}
	if b.Final {
		r.done, r.probe.compiling = true, nil
		if m.flashStop == r.id && m.flash == cancellingText { // stopped: the header says how
			m.flash, m.flashStop = "", 0
		}
		r.probes, r.parity = b.Probes, report.ConfigParity(b.Probes)
		cmds = append(cmds, m.recordMetric(r), m.rebuildStory())
		if r.probe.torch == "" {
			cmds = append(cmds, m.readProbe(r))
		}
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
		m.launchFailed = s.err.Error()
		if s.run == nil {
			return nil
		}
	}
	if s.err == nil {
		m.flash, m.launchFailed = "", ""
	}
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
	if m.cur != nil && !m.cur.picked {
		m.selectTop(s)
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
			if h := m.sess.Handle(r.id); h != nil {
				h.Stop("relaunched with preset " + m.pre.name)
			}
		}
	}
	m.flash = fmt.Sprintf("relaunching with preset %s…", m.pre.name)
	return m.start(m.launchSpec())
}

// stacksMsg reports a stack-dump request.
type stacksMsg struct{ text string }

// dumpStacks asks the live run's processes for their stacks (s, on the stall banner and on every screen).
func (m *Model) dumpStacks() tea.Cmd {
	switch {
	case m.opt.mode == modeOpen:
		m.flash = "no run is live: opened logs are read, not run"
		return nil
	case m.cur == nil || m.cur.done || m.sess == nil:
		m.flash = "no run is live"
		return nil
	}
	h := m.sess.Handle(m.cur.id)
	if h == nil {
		m.flash = "no run is live"
		return nil
	}
	return func() tea.Msg {
		n, err := h.DumpStacks()
		if err != nil {
			return stacksMsg{"stack dump: " + err.Error()}
		}
		return stacksMsg{fmt.Sprintf("asked %s for their stacks: see the log (l)", plural(n, "process"))}
	}
}

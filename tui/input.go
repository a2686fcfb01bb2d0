package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// key routes a key press: an open prompt, then text input, then the preset picker, then the stall banner, then
// the screen's own keys, then the global ones.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	m.flash = ""
	switch {
	case m.prompt != nil:
		return m.answer(msg)
	case m.typing:
		return m.typeKey(msg)
	case m.pre.picking:
		return m.pickKey(msg)
	}
	if m.stallBanner() {
		switch {
		case key.Matches(msg, m.keys.Stacks):
			return m.dumpStacks()
		case key.Matches(msg, m.keys.Cancel):
			m.stopRun()
			return nil
		case key.Matches(msg, m.keys.Wait):
			m.cur.dismissed = true
			return nil
		}
	}
	var cmd tea.Cmd
	handled := true
	switch m.screen {
	case screenMain:
		cmd, handled = m.mainKey(msg)
	case screenLog:
		cmd, handled = m.logKey(msg)
	case screenDetail:
		cmd, handled = m.detailKey(msg)
	case screenRuns:
		cmd, handled = m.runsKey(msg)
	case screenGuide:
		cmd, handled = m.guideKey(msg)
	case screenDiff, screenRanks, screenTimeline, screenHelp:
		handled = m.scrollKey(msg, m.scrollOf(m.screen))
	}
	if handled {
		return cmd
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m.quit()
	case key.Matches(msg, m.keys.Help):
		m.toggle(screenHelp)
	case key.Matches(msg, m.keys.Back):
		m.goBack()
	case key.Matches(msg, m.keys.Log):
		m.openLog(-1)
	case key.Matches(msg, m.keys.Runs):
		m.toggle(screenRuns)
		return m.rebuildStory()
	case key.Matches(msg, m.keys.Ranks):
		m.toggle(screenRanks)
	case key.Matches(msg, m.keys.Timeline):
		m.toggle(screenTimeline)
	case key.Matches(msg, m.keys.Diff):
		m.diffLatest()
	case key.Matches(msg, m.keys.Rerun):
		return m.askRelaunch()
	case key.Matches(msg, m.keys.Stop):
		m.stopRun()
	}
	return nil
}

// mainKey handles the lists and the preset bar.
func (m *Model) mainKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	ls := m.focused()
	switch {
	case key.Matches(msg, k.Tab):
		m.setFocus(m.nextPane(1))
	case key.Matches(msg, k.BackTab):
		m.setFocus(m.nextPane(-1))
	case m.focus == panePresets && key.Matches(msg, k.Left):
		m.pre.cursor = max(m.pre.cursor-1, 0)
	case m.focus == panePresets && key.Matches(msg, k.Right):
		m.pre.cursor = min(m.pre.cursor+1, len(m.pre.entries())-1)
	case key.Matches(msg, k.Left):
		m.setFocus(paneBreaks)
	case key.Matches(msg, k.Right):
		m.setFocus(paneRecompiles)
	case m.opt.mode == modeOpen && (key.Matches(msg, k.Toggle) || key.Matches(msg, k.Preset)):
		m.flash = "opened logs cannot be relaunched: torchtriage run -- CMD launches with presets"
	case key.Matches(msg, k.Toggle):
		if m.focus != panePresets {
			m.setFocus(panePresets)
			m.flash = "preset bar: ←/→ pick a name, space toggles it, r relaunches with it"
			break
		}
		if name, ok := m.pre.toggle(m.torchVersion()); !ok && name != "" {
			m.flash = fmt.Sprintf("%s: torch %s does not know this TORCH_LOGS name", name, m.torchVersion())
		}
	case key.Matches(msg, k.Preset):
		m.pre.picking = true
		m.pre.pick = presetIndex(m.pre.name)
	case ls != nil && key.Matches(msg, k.Up):
		ls.move(-1)
	case ls != nil && key.Matches(msg, k.Down):
		ls.move(1)
	case ls != nil && key.Matches(msg, k.PgUp):
		ls.move(-m.pageRows())
	case ls != nil && key.Matches(msg, k.PgDown):
		ls.move(m.pageRows())
	case ls != nil && key.Matches(msg, k.Top):
		ls.move(-ls.len())
	case ls != nil && key.Matches(msg, k.Bottom):
		ls.move(ls.len())
	case key.Matches(msg, k.Enter):
		if m.selected() != nil {
			m.det = detailState{}
			m.screen = screenDetail
		}
	case key.Matches(msg, k.Filter):
		if ls == nil {
			m.setFocus(m.last)
			ls = m.focused()
		}
		m.startTyping(ls.pattern)
	case key.Matches(msg, k.Next):
		m.openGuide()
	case key.Matches(msg, k.Back):
		if ls != nil && ls.pattern != "" {
			ls.setPattern("")
		}
	default:
		return nil, false
	}
	return nil, true
}

// nextPane cycles breaks → recompiles → preset bar (no preset bar for opened logs).
func (m *Model) nextPane(d int) pane {
	n := 3
	if m.opt.mode == modeOpen {
		n = 2
	}
	return pane((int(m.focus) + d + n) % n)
}

// focused returns the focused list, nil when the preset bar has focus.
func (m *Model) focused() *listState {
	if m.focus == panePresets {
		return nil
	}
	return &m.lists[m.focus]
}

func (m *Model) setFocus(p pane) {
	m.focus = p
	if p != panePresets {
		m.last = p
	}
}

// selected is the finding the recommended box and the detail view show.
func (m *Model) selected() *row {
	p := m.focus
	if p == panePresets {
		p = m.last
	}
	return m.lists[p].selected()
}

func (m *Model) toggle(s screen) {
	if m.screen == s {
		m.screen = screenMain
		return
	}
	if s == screenLog || m.screen != screenLog {
		m.back = m.screen
	}
	m.screen = s
}

func (m *Model) goBack() {
	if m.screen == screenLog && m.back != screenLog {
		m.screen = m.back
		m.back = screenMain
		return
	}
	m.screen = screenMain
}

// askRelaunch reruns at once, or asks first when a run is still going.
func (m *Model) askRelaunch() tea.Cmd {
	if m.opt.mode == modeOpen {
		return m.relaunch()
	}
	if m.live() {
		m.ask(fmt.Sprintf("Cancel the running repro and relaunch with preset %s? (y/n)", m.pre.name),
			func(m *Model) tea.Cmd { return m.relaunch() })
		return nil
	}
	return m.relaunch()
}

// stopRun cancels the run on screen (SIGINT, then SIGTERM, then SIGKILL).
func (m *Model) stopRun() {
	if m.cur == nil || m.cur.done || m.sess == nil {
		return
	}
	if h := m.sess.Handle(m.cur.id); h != nil {
		h.Stop("cancelled from the TUI")
		m.flash = "cancelling the run (SIGINT, then SIGTERM, then SIGKILL)…"
	}
}

func (m *Model) stallBanner() bool {
	return m.cur != nil && m.cur.stalled && !m.cur.dismissed && !m.cur.done
}

func (m *Model) wheel(msg tea.MouseWheelMsg) {
	d := 3
	if msg.Button == tea.MouseWheelUp {
		d = -3
	}
	switch m.screen {
	case screenMain:
		if ls := m.focused(); ls != nil {
			ls.move(d)
		}
	case screenLog:
		m.logv.scrollBy(d, m)
	default:
		if s := m.scrollOf(m.screen); s != nil {
			s.off = max(s.off+d, 0)
		}
	}
}

package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// key runs what a key press means in the active scopes (the key table decides); a key that means nothing there
// is typed when the input line has focus, else ignored.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	m.flash = ""
	if b := m.keys.lookup(m.scopes(), msg); b != nil {
		return b.do(m)
	}
	if m.typing {
		m.edit(func(in *inputLine) { in.insert(msg.Key().Text) })
	}
	return nil
}

// sideways: ← and → pick a list, or move along the preset bar when it has focus.
func (m *Model) sideways(d int) {
	switch {
	case m.focus == panePresets:
		m.pre.cursor = max(min(m.pre.cursor+d, len(m.pre.entries())-1), 0)
	case d < 0:
		m.focusPane(paneBreaks)
	default:
		m.focusPane(paneRecompiles)
	}
}

// togglePresetEntry: space focuses the preset bar, then toggles the name under its cursor.
func (m *Model) togglePresetEntry() {
	switch {
	case m.opt.mode == modeOpen:
		m.flash = "opened logs cannot be relaunched: torchtriage run -- CMD launches with presets"
	case m.focus != panePresets:
		m.setFocus(panePresets)
		m.flash = "preset bar: ←/→ pick a name, space toggles it, r relaunches with it"
	default:
		if name, ok := m.pre.toggle(m.torchVersion()); !ok && name != "" {
			m.flash = fmt.Sprintf("%s: torch %s does not know this TORCH_LOGS name", name, m.torchVersion())
		}
	}
}

func (m *Model) openPicker() {
	if m.opt.mode == modeOpen {
		m.flash = "opened logs cannot be relaunched: torchtriage run -- CMD launches with presets"
		return
	}
	m.pre.picking = true
	m.pre.pick = presetIndex(m.pre.name)
}

func (m *Model) openDetail() {
	if m.selected() != nil {
		m.userPicks()
		m.det = detailState{} // at its title: the evidence cursor is revealed when it moves (a long recompile's put it first)
		m.screen = screenDetail
	}
}

// filterList opens the input line on the focused list's filter (the last list when the preset bar has focus).
func (m *Model) filterList() {
	m.userPicks()
	if m.focused() == nil {
		m.setFocus(m.last)
	}
	m.startTyping(m.focused().pattern)
}

func (m *Model) clearFilter() {
	if ls := m.focused(); ls != nil {
		ls.setPattern("")
	}
}

// logKey: l opens the log at its end; in the detail view at the selected record; in the log it closes it.
func (m *Model) logKey() {
	switch m.screen {
	case screenDetail:
		m.jumpToRecord()
	case screenLog:
		m.goBack()
	default:
		m.openLog(-1)
	}
}

// toggleRuns opens or closes the runs view; opening it builds the session story.
func (m *Model) toggleRuns() tea.Cmd {
	m.toggle(screenRuns)
	return m.rebuildStory()
}

// interrupt is ctrl+c: quit, asking first while a run is going; a second ctrl+c on that question quits.
func (m *Model) interrupt() tea.Cmd {
	if m.prompt != nil && m.prompt.text == quitQuestion {
		m.prompt = nil
		return m.quitNow()
	}
	return m.quit()
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

// goBack is esc (and q) on a sub-screen: the log returns to the screen it was opened from, the others to the
// main screen.
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

// cancellingText is the flash of a run being stopped, until it has stopped (applyBatch).
const cancellingText = "cancelling the run (SIGINT, then SIGTERM, then SIGKILL)…"

// stopRun cancels the run on screen (SIGINT, then SIGTERM, then SIGKILL).
func (m *Model) stopRun() {
	switch {
	case m.opt.mode == modeOpen:
		m.flash = "no run is live: opened logs are read, not run"
		return
	case m.cur == nil || m.cur.done || m.sess == nil:
		m.flash = "no run is live"
		return
	}
	if h := m.sess.Handle(m.cur.id); h != nil {
		h.Stop("cancelled from the TUI")
		m.flash, m.flashStop = cancellingText, m.cur.id
	}
}

func (m *Model) stallBanner() bool {
	return m.cur != nil && m.cur.stalled && !m.cur.dismissed && !m.cur.done
}

// wheel scrolls what is under the keys by three lines.
func (m *Model) wheel(msg tea.MouseWheelMsg) {
	d := 3
	if msg.Button == tea.MouseWheelUp {
		d = -3
	}
	switch m.screen {
	case screenMain:
		if ls := m.focused(); ls != nil {
			m.userPicks()
			ls.move(d)
		}
	case screenLog:
		m.logv.scrollBy(d)
	default:
		if s := m.scrollOf(m.screen); s != nil {
			s.off = max(s.off+d, 0)
		}
	}
}

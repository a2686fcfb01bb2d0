package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// prompt is a yes/no question shown in the banner line; every other key is ignored while it is open.
type prompt struct {
	text string
	yes  func(m *Model) tea.Cmd
}

func (m *Model) ask(text string, yes func(m *Model) tea.Cmd) {
	m.prompt = &prompt{text: text, yes: yes}
}

func (m *Model) answer(msg tea.KeyPressMsg) tea.Cmd {
	p := m.prompt
	switch {
	case key.Matches(msg, m.keys.Yes), msg.String() == "ctrl+c" && p.text == quitQuestion: // a second ctrl+c quits
		m.prompt = nil
		return p.yes(m)
	case key.Matches(msg, m.keys.No):
		m.prompt = nil
	}
	return nil
}

const quitQuestion = "The repro is still running. Kill it and quit? (y/n)"

// quit asks first when a run is still going; it then cancels every run and quits (the entry point calls
// session.Shutdown after the program returns).
func (m *Model) quit() tea.Cmd {
	if m.live() {
		m.ask(quitQuestion, func(m *Model) tea.Cmd { return m.quitNow() })
		return nil
	}
	return m.quitNow()
}

func (m *Model) quitNow() tea.Cmd {
	if m.sess != nil {
		for _, r := range m.runs {
			if h := m.sess.Handle(r.id); h != nil && !r.done {
				h.Stop("the TUI quit")
			}
		}
	}
	return tea.Quit
}

package tui

import tea "charm.land/bubbletea/v2"

// prompt is a yes/no question shown in the banner line; while it is open only the question's keys work.
type prompt struct {
	text string
	yes  func(m *Model) tea.Cmd
}

func (m *Model) ask(text string, yes func(m *Model) tea.Cmd) {
	m.prompt = &prompt{text: text, yes: yes}
}

// yes answers the question.
func (m *Model) yes() tea.Cmd {
	p := m.prompt
	m.prompt = nil
	return p.yes(m)
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

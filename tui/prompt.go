package tui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/session"
)

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
	stopped := false
	if m.sess != nil {
		for _, r := range m.runs {
			if h := m.sess.Handle(r.id); h != nil && !r.done {
				h.Stop("the TUI quit")
				stopped = true
			}
		}
	}
	if !stopped {
		return tea.Quit
	}
	// the screen says what it waits for until the runs end (a child that ignores SIGINT and SIGTERM takes two
	// graces): a blank screen for ~10 s read as a hang
	if m.quitAt.IsZero() {
		m.quitAt = m.now()
	}
	return m.quitTick()
}

// quitTickMsg refreshes the quitting screen.
type quitTickMsg struct{}

func (m *Model) quitTick() tea.Cmd {
	return tea.Tick(250*time.Millisecond, func(time.Time) tea.Msg { return quitTickMsg{} })
}

// quitting: the TUI quit and waits for its runs to end; it ends once none is live.
func (m *Model) quitting() bool { return !m.quitAt.IsZero() }

// quitText is the quitting screen's line: "quitting: waiting for pid 4242 to end (SIGTERM sent, KILL in 3s)", the
// signal ladder of session.Grace counted from when the TUI quit.
func (m *Model) quitText() string {
	var pids []string
	for _, r := range m.runs {
		if !r.done && r.hasMeta && r.meta.Pid > 0 {
			pids = append(pids, strconv.Itoa(r.meta.Pid))
		}
	}
	who := "the run"
	if len(pids) == 1 {
		who = "pid " + pids[0]
	} else if len(pids) > 1 {
		who = "pids " + strings.Join(pids, ", ")
	}
	g, el := session.Grace(m.opt.spec), m.now().Sub(m.quitAt)
	in := func(d time.Duration) string { return fmt.Sprintf("%ds", int(math.Ceil(max(d, 0).Seconds()))) }
	state := "KILL sent"
	switch {
	case el < g:
		state = "SIGINT sent, SIGTERM in " + in(g-el)
	case el < 2*g:
		state = "SIGTERM sent, KILL in " + in(2*g-el)
	}
	return "quitting: waiting for " + who + " to end (" + state + ")"
}

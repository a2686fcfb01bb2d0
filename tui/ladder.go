package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/ladder"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// ladderState is the backend ladder started with L: its progress line and how to stop it.
type ladderState struct {
	ch      chan tea.Msg // the ladder's progress lines, then its end
	cancel  context.CancelFunc
	line    string // the newest progress line, shown in the status area while it runs
	stopped bool   // the user asked it to stop
}

type ladderLineMsg string

type ladderDoneMsg struct {
	l   *ladder.Ladder
	err error
}

// askLadder asks before climbing the backend ladder on the current run's command: it runs the repro up to once
// per backend. A demo, opened logs and a run still going say in one line why it cannot.
func (m *Model) askLadder() tea.Cmd {
	switch {
	case m.opt.mode == modeDemo:
		m.flash = "the backend ladder runs your own command, not a replayed recording: torchtriage ladder -- CMD"
	case m.opt.mode == modeOpen:
		m.flash = "opened logs have no command to run the backend ladder on: torchtriage ladder -- CMD"
	case m.cur == nil || !m.cur.done:
		m.flash = "the backend ladder runs once the run has ended: wait for it, or cancel it (c)"
	case m.cur.hasMeta && m.cur.meta.UserArgv != nil && !slices.Equal(m.cur.meta.UserArgv, runs.RedactArgv(m.opt.spec.Argv)):
		m.flash = "this run is of another command: L climbs this session's; torchtriage ladder -- CMD for that one"
	default:
		m.ask(fmt.Sprintf("Run the backend ladder on this repro? It runs it up to %d times (%s). (y/n)",
			len(ladder.Backends), strings.Join(ladder.Backends, ", ")), (*Model).startLadder)
	}
	return nil
}

// startLadder climbs the ladder off the UI goroutine on the current run's command (its argv, dir, env and preset),
// with PyTorch's accuracy check on when this run's result was found wrong.
func (m *Model) startLadder() tea.Cmd {
	spec := m.launchSpec()
	if m.cur.hasMeta && m.cur.meta.Preset != "" {
		spec.Preset, spec.Logs = m.cur.meta.Preset, nil
	}
	ctx, cancel := context.WithCancelCause(context.Background()) // the stopped tier's meta.json says the user's words
	ch := make(chan tea.Msg, 64)
	m.lad = &ladderState{ch: ch, cancel: func() { cancel(ladder.ErrStopped) }, line: "backend ladder: starting"}
	set, _ := m.pbs()
	o := ladder.Options{Store: m.opt.store, Spec: spec, Playbooks: set, Context: ctx,
		CheckAccuracy: m.checklist().Wrong != "", Progress: func(s string) { ch <- ladderLineMsg(s) }}
	go func(run func(ladder.Options) (*ladder.Ladder, error)) {
		l, err := run(o)
		ch <- ladderDoneMsg{l, err}
	}(m.runLadder)
	return waitLadder(ch)
}

func waitLadder(ch chan tea.Msg) tea.Cmd { return func() tea.Msg { return <-ch } }

// stopLadder stops the running tier's process tree and the ladder; its end says the user stopped it.
func (m *Model) stopLadder() {
	m.lad.cancel()
	m.lad.stopped = true
	m.lad.line = "stopping the backend ladder (stopped by you)…"
}

// ladderEnded shows the ladder's result in its own words (its summary, the first bad tier's why) and rebuilds the
// runs view, where its runs show as one experiment.
func (m *Model) ladderEnded(msg ladderDoneMsg) tea.Cmd {
	m.lad.cancel()
	stopped := m.lad.stopped || errors.Is(msg.err, ladder.ErrStopped)
	m.lad = nil
	switch {
	case stopped:
		m.flash = "the backend ladder was stopped by you (esc/ctrl+c): no verdict; its runs so far are in the runs view (h)"
	case msg.err != nil:
		m.flash = "the backend ladder could not run: " + msg.err.Error()
	default:
		m.flash = ladder.Headline(msg.l)
	}
	return m.rebuildStory()
}

package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/session"
)

// The probe's files of a live run, read in a command (never in Update or View): the start files give the real
// torch version as soon as torch is imported, the compile-state files which rank compiles what. Read on the slow
// tick while a run goes, at once when it stalls, and once when it ends.

// probeEvery is how often a live run's probe files are read.
const probeEvery = 2 * time.Second

// probeMsg is what a run's probe files said.
type probeMsg struct {
	runID  int
	starts []report.ProbeStart
	states []report.ProbeCompileState
}

// probeState is what the model knows from a run's probe files.
type probeState struct {
	torch     string                     // the first start file's torch version
	started   int                        // processes that wrote a start file
	compiling []report.ProbeCompileState // the last read of the compile states (live runs)
	reading   bool                       // a read is under way
	readAt    time.Time                  // when the last read was asked for
}

// readProbe reads run r's probe files in a command; nil when a read is under way or the run has no directory.
func (m *Model) readProbe(r *runView) tea.Cmd {
	dir := r.meta.Dir
	if dir == "" || r.probe.reading {
		return nil
	}
	r.probe.reading, r.probe.readAt = true, m.now()
	id := r.id
	return func() tea.Msg {
		starts, _ := session.ReadStarts(dir)
		states, _ := session.ReadCompileStates(dir)
		return probeMsg{runID: id, starts: starts, states: states}
	}
}

// probeDue reads the probe files of every live run whose last read is older than probeEvery (the tick).
func (m *Model) probeDue() tea.Cmd {
	var cmds []tea.Cmd
	for _, r := range m.runs {
		if !r.done && m.now().Sub(r.probe.readAt) >= probeEvery {
			cmds = append(cmds, m.readProbe(r))
		}
	}
	return tea.Batch(cmds...)
}

// probed takes a read of the probe files.
func (m *Model) probed(msg probeMsg) {
	r := m.runByID(msg.runID)
	if r == nil {
		return
	}
	r.probe.reading = false
	r.probe.started = max(r.probe.started, len(msg.starts))
	for _, s := range msg.starts {
		if s.Torch != "" && r.probe.torch == "" {
			r.probe.torch = s.Torch
		}
	}
	r.probe.compiling = nil
	if !r.done {
		r.probe.compiling = msg.states
	}
}

// compileText says which ranks of the run on screen compile now ("rank 1 compiling `forward` for 12s · others
// waiting"), from the last read of the probe's files, else from what the stall note said; ""
// when nothing is known to compile.
func (m *Model) compileText() string {
	r := m.cur
	if r == nil || r.done {
		return ""
	}
	if s := describeCompiling(r.probe.compiling, r.probe.started-len(r.probe.compiling), m.now()); s != "" {
		return s
	}
	if r.stalled {
		return r.stallNote
	}
	return ""
}

// describeCompiling is the short form of session.DescribeCompiling for one status line: "rank 3 compiling
// `forward` for 2m10s · others waiting"; "" when no live process compiles. unseen is how many processes
// started without compiling yet (no compile-state file): they wait too.
func describeCompiling(states []report.ProbeCompileState, unseen int, now time.Time) string {
	var parts []string
	idle := max(unseen, 0)
	for _, s := range states {
		switch {
		case !s.Alive:
		case s.Compiling():
			what := "compiling"
			if s.Function != "" {
				what += " `" + s.Function + "`"
			}
			parts = append(parts, fmt.Sprintf("%s %s for %s", s.Who(), what, ago(now.Sub(s.Since()))))
		default:
			idle++
		}
	}
	if len(parts) == 0 {
		return ""
	}
	if idle > 0 {
		parts = append(parts, "others waiting")
	}
	return strings.Join(parts, " · ")
}

// processes is how many processes of a run the probe saw (start or exit files), 1 when it saw none.
func processes(r *runView) int {
	return max(r.probe.started, len(r.probes), 1)
}

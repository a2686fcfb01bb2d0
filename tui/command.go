package tui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// userArgv is the command of the run on screen as the user typed it (before the tool's torchrun wrapper).
func (m *Model) userArgv() ([]string, bool) {
	if r := m.cur; r != nil && r.hasMeta && len(r.meta.UserArgv) > 0 {
		return r.meta.UserArgv, r.meta.Shell
	}
	return m.opt.spec.Argv, m.opt.spec.Shell
}

// infoText is the info screen (i): the run's full command as typed and as executed, where it ran, its preset
// and environment, the torch version and where that came from, and how it ended.
func (m *Model) infoText(w int) (string, []string) {
	th := m.th
	var lines []string
	add := func(label, text string) {
		if text == "" {
			return
		}
		lines = append(lines, hang(text, max(w-18, 20), th.title.Render(fmt.Sprintf(" %-14s", label)), strings.Repeat(" ", 15))...)
	}
	if m.opt.mode == modeOpen {
		add("opened", strings.Join(m.opt.paths, " "))
		if r := m.cur; r != nil && r.opened != nil { // a run directory: its command and how it ended
			me := r.opened
			add("command", shellJoin(orArgv(me.UserArgv, me.Argv)))
			if len(me.UserArgv) > 0 && len(me.Argv) > 0 && shellJoin(me.Argv) != shellJoin(me.UserArgv) {
				add("executed", shellJoin(me.Argv))
			}
			add("cwd", me.Cwd)
			add("preset", me.Preset+" · TORCH_LOGS="+me.TorchLogs)
		}
		add("torch", m.torchText())
		if r := m.cur; r != nil {
			add("ended", rowEnded(runRow{id: r.id, view: r})) // as the verdict knows it, the runs list's words
		}
		m.addOutcome(add)
		return "Info · what was opened", lines
	}
	argv, shell := m.userArgv()
	if m.opt.mode == modeDemo {
		add("script", "demo "+m.opt.scenario+" (a recording of real PyTorch output replayed as the repro)")
	} else {
		add("script", orText(runs.ScriptName(argv, shell), "(cannot tell from the command)"))
	}
	add("command", shellJoin(argv))
	r := m.cur
	if r == nil || !r.hasMeta {
		return "Info · the run's command", lines
	}
	me := r.meta
	if len(me.Argv) > 0 && shellJoin(me.Argv) != shellJoin(argv) {
		add("executed", shellJoin(me.Argv))
	}
	add("cwd", me.Cwd)
	add("run dir", me.Dir)
	add("preset", me.Preset+" · TORCH_LOGS="+me.TorchLogs)
	if len(me.DroppedLogs) > 0 {
		add("dropped", strings.Join(me.DroppedLogs, ",")+" (this torch does not know them)")
	}
	var env []string
	for k, v := range me.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	add("env", strings.Join(env, " "))
	add("torch", m.torchText())
	add("state", ansi.Strip(m.stateText()))
	add("stopped", me.StopReason)
	add("error", me.Error)
	m.addOutcome(add)
	return fmt.Sprintf("Info · run %d · the full command", r.id), lines
}

// addOutcome adds the main screen's sentences about how the run on show ended, whole (the main screen ends one
// that does not fit it in "… i: in full"): the report's verdict of a run that ended and what it rests on ("Based
// on:"), its "First failure:" and the exceptions the program caught.
func (m *Model) addOutcome(add func(label, text string)) {
	r := m.cur
	if r == nil || r.snap == nil || r.snap.analysis == nil {
		return
	}
	if r.done {
		add("verdict", clean(r.snap.analysis.Verdict.Summary))
	}
	add("based on", clean(strings.Join(r.snap.analysis.Verdict.Basis, "; "))) // the report's "Based on:"
	add("first failure", clean(m.firstFailure()))
	for _, l := range m.caughtLines() {
		add("caught", clean(l))
	}
}

func orArgv(a, alt []string) []string {
	if len(a) == 0 {
		return alt
	}
	return a
}

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

package tui

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/triage/session"
)

// headerLine: run number, preset and its TORCH_LOGS, the command; state, elapsed time and torch version. Below
// wideFrom columns the tool's name (also the window title) gives its room to the script.
func (m *Model) headerLine(w int) string {
	th := m.th
	left := " " + th.title.Render("torchtriage") + " ·"
	if w < wideFrom {
		left = ""
	}
	if m.opt.mode == modeOpen {
		left += " open · " + strings.Join(m.opt.paths, " ")
		if m.cur != nil && m.cur.snap != nil {
			left += " · " + plural(m.cur.snap.records, "record")
		}
	} else if r := m.cur; r != nil {
		head, tail := left+fmt.Sprintf(" run %d · %s", r.id, r.meta.Preset), " · "+m.commandText()
		left = head + tail
		if logs := r.meta.TorchLogs; logs != "" { // the preset bar shows them too: cut them before the script
			if room := w - width(head) - width(tail) - width(m.headerRight(w)) - 4; room >= 2 {
				left = head + " (" + cut(logs, room) + ")" + tail
			}
		}
	} else {
		left += " starting · " + m.commandText()
	}
	return spread(left, m.headerRight(w), w)
}

// headerRight is the header's right side: the demo badge, the run's state and the torch version (closer together
// below wideFrom columns).
func (m *Model) headerRight(w int) string {
	var right []string
	sep, badge := "   ", " DEMO · recording "
	if w < wideFrom {
		sep, badge = "  ", " DEMO "
	}
	if m.opt.mode == modeDemo {
		right = append(right, m.th.badge.Render(badge))
	}
	if st := m.stateText(); st != "" {
		right = append(right, st)
	}
	if v := m.torchText(); v != "" {
		right = append(right, "torch "+v)
	}
	return strings.Join(right, sep) + " "
}

// commandText names the user's script, not the launcher in front of it (the full command is on the info
// screen, i); the command itself when the script cannot be told; the demo's scenario for demo.
func (m *Model) commandText() string {
	if m.opt.mode == modeDemo {
		return "demo " + m.opt.scenario
	}
	argv, shell := m.userArgv()
	s := scriptName(argv, shell)
	if s == "" {
		s = shellJoin(argv)
	}
	if m.opt.spec.Nproc > 0 {
		s = fmt.Sprintf("%s ×%d ranks", s, m.opt.spec.Nproc)
	}
	return clean(s) // a `python -c` script's newlines would break the header in two
}

// stateText is "● running 0:41", "✓ exited 0 · 0:12", "✗ killed", "⚠ stalled 31s", "■ stopped by torchtriage
// (cancelled) · 0:12" (what the tool did itself is never shown as a failure).
func (m *Model) stateText() string {
	r := m.cur
	if r == nil || m.opt.mode == modeOpen {
		return ""
	}
	th := m.th
	if !r.done {
		if r.stalled {
			return th.warn.Render(fmt.Sprintf("⚠ stalled %ds", int(m.now().Sub(r.stallSince).Seconds())))
		}
		return th.good.Render("● running " + clock(m.now().Sub(r.start)))
	}
	me := r.meta
	dur := clock(me.Duration())
	switch {
	case stopWords(me) != "":
		return th.warn.Render("■ " + stopWords(me) + " · " + dur)
	case me.State == session.StateFailedToStart || (r.err != "" && !r.hasMeta):
		return th.bad.Render("✗ failed to start")
	case me.State == session.StateTimedOut:
		return th.bad.Render("✗ timed out · " + dur)
	case me.State == session.StateKilled:
		sig := ""
		if me.Signal != "" {
			sig = " (" + me.Signal + ")"
		}
		return th.bad.Render("✗ killed" + sig + " · " + dur)
	case me.ExitCode != nil && *me.ExitCode == 0:
		return th.good.Render("✓ exited 0 · " + dur)
	case me.ExitCode != nil:
		return th.bad.Render(fmt.Sprintf("✗ exited %d · %s", *me.ExitCode, dur))
	}
	return string(me.State)
}

// runTorch is the torch version a run's sources state, the best first: the probe's start files (written when
// torch is imported), its exit files, a trace or launcher frame in the log (report), the run's meta; "" when
// none does.
func runTorch(r *runView) string {
	if r == nil {
		return ""
	}
	if r.probe.torch != "" {
		return r.probe.torch
	}
	for _, p := range r.probes {
		if p.Torch != "" {
			return p.Torch
		}
	}
	if r.snap != nil && r.snap.torch != "" {
		return r.snap.torch
	}
	return r.meta.TorchVersion
}

// torchVersion is the installed torch's version when a source states it: the run on screen's, another run's of
// the session, else what the spec says (as the demo does).
func (m *Model) torchVersion() string {
	if v := runTorch(m.cur); v != "" {
		return v
	}
	for i := len(m.runs) - 1; i >= 0; i-- {
		if v := runTorch(m.runs[i]); v != "" {
			return v
		}
	}
	return m.opt.spec.TorchVersion
}

// torchText is the version for the header: a stated one, else the log format's era marked as a guess
// ("? (log format 2.9+)").
func (m *Model) torchText() string {
	if v := m.torchVersion(); v != "" {
		return v
	}
	if m.cur != nil && m.cur.snap != nil && m.cur.snap.report != nil && m.cur.snap.report.LogFormat != "" {
		return "? (log format " + m.cur.snap.report.LogFormat + ")"
	}
	return ""
}

// presetLine is the preset bar: every TORCH_LOGS name with its toggle, names this torch lacks dimmed, the
// chosen preset on the right and a mark when the choice differs from the run on screen.
func (m *Model) presetLine(w int) string {
	th := m.th
	torch := m.torchVersion()
	right := "preset ▸ " + th.title.Render(m.pre.name)
	if m.cur != nil && m.cur.sig != "" && m.cur.sig != m.pre.signature() {
		right = th.warn.Render("changed: r relaunches") + " · " + right
	}
	right += " "
	es := m.pre.entries()
	focus := m.focus == panePresets
	avail := w - width(right) - 2
	// keep the cursor visible: start the bar early enough
	start := 0
	for start < m.pre.cursor && barWidth(es[start:m.pre.cursor+1]) > avail {
		start++
	}
	var b strings.Builder
	b.WriteString(" ")
	if start > 0 {
		b.WriteString("… ")
	}
	for i := start; i < len(es); i++ {
		e := es[i]
		box := "[ ]"
		if e.On {
			box = "[x]"
		}
		item := box + e.Name
		st := th.plain
		if e.Name != traceEntry && !known(e.Name, torch) {
			st = th.dim
			item = "[-]" + e.Name
		}
		if focus && i == m.pre.cursor {
			st = th.sel
		}
		if width(b.String())+width(item)+1 > avail+1 {
			b.WriteString("…")
			break
		}
		b.WriteString(st.Render(item) + " ")
	}
	return spread(b.String(), right, w)
}

func barWidth(es []session.LogEntry) int {
	n := 0
	for _, e := range es {
		n += len(e.Name) + 4
	}
	return n
}

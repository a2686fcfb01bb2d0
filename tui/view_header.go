package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// headerLine: run number, preset and its TORCH_LOGS, the command; state, elapsed time and torch version. It
// starts in one form at every width: " run 3 · …", " open · …" or " starting · …" (the tool's name is the window
// title's; it came and went with the room the TORCH_LOGS names left). The TORCH_LOGS names give way to the script.
func (m *Model) headerLine(w int) string {
	left := ""
	if m.opt.mode == modeOpen {
		left = " open · " + strings.Join(m.opt.paths, " ") // no count here: the report's are in the panes' titles
	} else if r := m.cur; r != nil {
		run, tail := fmt.Sprintf(" run %d · %s", r.id, r.meta.Preset), " · "+m.commandText()
		left = run + tail
		if logs := r.meta.TorchLogs; logs != "" { // the preset bar shows them too: they give way before the script
			room := w - cells.Width(left) - cells.Width(m.headerRight(w)) - 4
			if l := logsText(logs, r.meta.Preset, room); l != "" {
				left = run + " (" + l + ")" + tail
			}
		}
	} else {
		left = " starting · " + m.commandText()
	}
	return cells.Spread(left, m.headerRight(w), w)
}

// logsText is a run's TORCH_LOGS in at most w cells, the preset's own names first (cudagraphs' perf_hints and
// cudagraphs before the graph_breaks and recompiles every preset has): whole names, then "…" for those that do
// not fit ("perf_hints,cudagraphs,…"; the preset bar lists them all); "" when not even one name fits.
func logsText(logs, preset string, w int) string {
	names := strings.Split(logs, ",")
	if p, ok := runs.PresetByName(preset); ok {
		rank := func(n string) int {
			if i := slices.Index(p.Logs, n); i >= 0 {
				return i
			}
			return len(p.Logs)
		}
		slices.SortStableFunc(names, func(a, b string) int { return rank(a) - rank(b) })
	}
	for n := len(names); n > 0; n-- {
		s := strings.Join(names[:n], ",")
		if n < len(names) {
			s += "," + cells.Ellipsis
		}
		if cells.Width(s) <= w {
			return s
		}
	}
	return ""
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
	s := runs.ScriptName(argv, shell)
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
			return th.warn.Render("⚠ stalled " + ago(m.quiet(r)))
		}
		return th.good.Render("● running " + clock(m.now().Sub(r.start)))
	}
	me := r.meta
	dur := clock(me.Duration())
	switch {
	case stopWords(me) != "":
		return th.warn.Render("■ " + stopWords(me) + " · " + dur)
	case me.State == runs.StateFailedToStart || (r.err != "" && !r.hasMeta):
		return th.bad.Render("✗ failed to start")
	case me.State == runs.StateTimedOut:
		return th.bad.Render("✗ timed out · " + dur)
	case me.State == runs.StateKilled:
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
		return "? (" + report.LogFormatWords(m.cur.snap.report.LogFormat, "") + ")"
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
	avail := w - cells.Width(right) - 2
	items := make([]string, len(es))
	for i, e := range es {
		switch {
		case e.Name != traceEntry && !known(e.Name, torch):
			items[i] = "[-]" + e.Name
		case e.On:
			items[i] = "[x]" + e.Name
		default:
			items[i] = "[ ]" + e.Name
		}
	}
	anchor := 0
	if focus {
		anchor = m.pre.cursor
	}
	show, hiddenOn := barShown(es, items, anchor, avail, focus)
	if hiddenOn > 0 && !focus { // the boxes of what is on do not fit: name them instead
		return cells.Spread(onSummary(es, avail), right, w)
	}
	var b strings.Builder
	b.WriteString(" ")
	for i, e := range es {
		if !show[i] {
			if i == 0 || show[i-1] {
				b.WriteString("… ")
			}
			continue
		}
		st := th.plain
		if e.Name != traceEntry && !known(e.Name, torch) {
			st = th.dim
		}
		if focus && i == m.pre.cursor {
			st = th.sel
		}
		b.WriteString(st.Render(items[i]) + " ")
	}
	if hiddenOn > 0 {
		fmt.Fprintf(&b, "+%d on ", hiddenOn)
	}
	return cells.Spread(b.String(), right, w)
}

// onSummary is the preset bar in words, when the boxes of the names that are on do not fit: " on:
// graph_breaks,recompiles,perf_hints,cudagraphs", names from the end counted when even that is too wide ("+2").
func onSummary(es []runs.LogEntry, avail int) string {
	var on []string
	for _, e := range es {
		if e.On {
			on = append(on, e.Name)
		}
	}
	for n := len(on); n > 0; n-- {
		s := " on: " + strings.Join(on[:n], ",")
		if n < len(on) {
			s += fmt.Sprintf(",+%d", len(on)-n)
		}
		if cells.Width(s) <= avail-1 { // two spaces at least before the preset's name
			return s
		}
	}
	return fmt.Sprintf(" %d on", len(on))
}

// barShown picks the preset bar's entries for avail cells: all when they fit. Otherwise, with the bar focused, a
// window around the cursor (anchor) to move along; else every entry that is on (what the run will log is never
// hidden) and the others nearest the start. A run of hidden entries shows as "… "; entries that are on and
// hidden are counted in hiddenOn (the bar says "+2 on", or names them when it is not focused).
func barShown(es []runs.LogEntry, items []string, anchor, avail int, focus bool) (show []bool, hiddenOn int) {
	show = make([]bool, len(es))
	for i := range show {
		show[i] = true
	}
	barW := func() int {
		n := 1
		for i := range es {
			switch {
			case show[i]:
				n += cells.Width(items[i]) + 1
			case i == 0 || show[i-1]:
				n += 2
			}
		}
		if hiddenOn > 0 {
			n += len(fmt.Sprintf("+%d on ", hiddenOn))
		}
		return n
	}
	passes := [][]bool{{false}, {true}} // off entries first, then on ones
	if focus {
		passes = [][]bool{{false, true}} // the farthest from the cursor, on or off
	}
	for _, kinds := range passes {
		for barW() > avail+1 {
			far := -1
			for i := range es {
				if show[i] && slices.Contains(kinds, es[i].On) && i != anchor && (far < 0 || abs(i-anchor) >= abs(far-anchor)) {
					far = i
				}
			}
			if far < 0 {
				break
			}
			show[far] = false
			if es[far].On {
				hiddenOn++
			}
		}
	}
	return show, hiddenOn
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

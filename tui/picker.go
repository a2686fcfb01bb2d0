package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/session"
)

func presetIndex(name string) int {
	for i, p := range session.Presets() {
		if p.Name == name {
			return i
		}
	}
	return 0
}

// pickKey moves in the preset picker; enter chooses (applied on the next relaunch), esc closes.
func (m *Model) pickKey(msg tea.KeyPressMsg) tea.Cmd {
	ps := session.Presets()
	switch {
	case key.Matches(msg, m.keys.Up):
		m.pre.pick = max(m.pre.pick-1, 0)
	case key.Matches(msg, m.keys.Down):
		m.pre.pick = min(m.pre.pick+1, len(ps)-1)
	case key.Matches(msg, m.keys.Enter), key.Matches(msg, m.keys.Toggle):
		m.pre.choose(ps[m.pre.pick].Name)
		m.pre.picking = false
		m.flash = fmt.Sprintf("preset %s chosen: r relaunches with it", ps[m.pre.pick].Name)
	case key.Matches(msg, m.keys.Rerun):
		m.pre.choose(ps[m.pre.pick].Name)
		m.pre.picking = false
		return m.askRelaunch()
	case key.Matches(msg, m.keys.Back), key.Matches(msg, m.keys.Preset):
		m.pre.picking = false
	case msg.String() == "ctrl+c", msg.String() == "q":
		return m.quit()
	}
	return nil
}

// pickerBody lists the presets with their purpose and TORCH_LOGS.
func (m *Model) pickerBody(w, h int) []string {
	th := m.th
	torch := m.torchVersion()
	var lines []string
	for i, p := range session.Presets() {
		logs, dropped := session.ComposeTorchLogs(p.Logs, torch)
		env := logs
		if p.Trace {
			env = strings.TrimPrefix(env+" +TORCH_TRACE", " ")
		}
		for k, v := range p.Env {
			env = strings.TrimSpace(env + " " + k + "=" + v)
		}
		mark := "  "
		if i == m.pre.pick {
			mark = "▶ "
		}
		line := fmt.Sprintf("%s%-12s %s", mark, p.Name, p.Purpose)
		if i == m.pre.pick {
			line = th.sel.Render(fit(line, w-2))
		}
		lines = append(lines, line, "      "+th.dim.Render(env))
		if len(dropped) > 0 {
			lines = append(lines, "      "+th.dim.Render("not known to torch "+torch+": "+strings.Join(dropped, ",")))
		}
		if p.Note != "" {
			lines = append(lines, "      "+th.dim.Render(p.Note))
		}
	}
	lines = append(lines, "", " ↑/↓ choose · enter pick (applies on the next relaunch) · r pick and relaunch · esc close")
	return m.th.box("Preset · applies on the next relaunch (r)", scrollTo(lines, m.pre.pick*2, h-2), w, h, true)
}

// scrollTo keeps line at within a window of h lines.
func scrollTo(lines []string, at, h int) []string {
	if h <= 0 || len(lines) <= h {
		return lines
	}
	off := max(min(at-h/2, len(lines)-h), 0)
	return lines[off : off+h]
}

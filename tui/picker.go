package tui

import (
	"fmt"
	"strings"

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

// pickPreset chooses the preset under the picker's cursor for the next relaunch and closes the picker.
func (m *Model) pickPreset() {
	name := session.Presets()[m.pre.pick].Name
	m.pre.choose(name)
	m.pre.picking = false
	m.flash = fmt.Sprintf("preset %s chosen: r relaunches with it", name)
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

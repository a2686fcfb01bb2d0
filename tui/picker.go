package tui

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/tui/cells"
)

func presetIndex(name string) int {
	for i, p := range runs.Presets() {
		if p.Name == name {
			return i
		}
	}
	return 0
}

// pickPreset chooses the preset under the picker's cursor for the next relaunch and closes the picker.
func (m *Model) pickPreset() {
	name := runs.Presets()[m.pre.pick].Name
	m.pre.choose(name)
	m.pre.picking = false
	m.flash = fmt.Sprintf("preset %s chosen: r relaunches with it", name)
}

// pickerBody lists the presets with their purpose and TORCH_LOGS, each wrapped (the purpose under itself, the
// rest indented): nothing is cut, and the selected preset is kept whole on screen.
func (m *Model) pickerBody(w, h int) []string {
	th := m.th
	torch := m.torchVersion()
	inner := w - 2
	const nameW = 15 // "▶ " and the name, padded
	var lines []string
	at, end := 0, 0
	for i, p := range runs.Presets() {
		logs, dropped := runs.ComposeTorchLogs(p.Logs, torch)
		env := logs
		if p.Trace {
			env = strings.TrimPrefix(env+" +TORCH_TRACE", " ")
		}
		for k, v := range p.Env {
			env = strings.TrimSpace(env + " " + k + "=" + v)
		}
		mark := "  "
		if i == m.pre.pick {
			mark, at = "▶ ", len(lines)
		}
		for _, line := range hang(p.Purpose, max(inner-nameW-1, 10), fmt.Sprintf("%s%-12s ", mark, p.Name), strings.Repeat(" ", nameW)) {
			if i == m.pre.pick {
				line = th.sel.Render(cells.Fit(line, inner))
			}
			lines = append(lines, line)
		}
		more := []string{env}
		if len(dropped) > 0 {
			more = append(more, "not known to torch "+torch+": "+strings.Join(dropped, ","))
		}
		if p.Note != "" {
			more = append(more, p.Note)
		}
		for _, t := range more {
			for _, l := range cells.Wrap(t, max(inner-7, 10)) {
				lines = append(lines, "      "+th.dim.Render(l))
			}
		}
		if i == m.pre.pick {
			end = len(lines)
		}
	}
	return m.th.box("Preset · applies on the next relaunch (r)", scrollToRow(lines, at, end, h-2), w, h, true)
}

// scrollTo keeps line at within a window of h lines.
func scrollTo(lines []string, at, h int) []string {
	if h <= 0 || len(lines) <= h {
		return lines
	}
	off := max(min(at-h/2, len(lines)-h), 0)
	return lines[off : off+h]
}

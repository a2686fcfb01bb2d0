package tui

import (
	"fmt"
	"strings"
)

var helpGroups = []string{"Move", "Run", "Views", "Stall, log, detail, runs"}

// helpBody is the `?` screen: every binding of the key table, grouped, in as many columns as fit.
func (m *Model) helpBody(w, h int) []string {
	th := m.th
	var cols [][]string
	colW := 0
	for gi, g := range m.keys.fullHelp() {
		col := []string{th.title.Render(helpGroups[gi])}
		for _, b := range g {
			hp := b.Help()
			col = append(col, fmt.Sprintf("%s %s", th.key.Render(fmt.Sprintf("%-9s", hp.Key)), hp.Desc))
		}
		for _, l := range col {
			colW = max(colW, width(l)+3)
		}
		cols = append(cols, col)
	}
	perRow := max((w-4)/max(colW, 1), 1)
	var lines []string
	for start := 0; start < len(cols); start += perRow {
		end := min(start+perRow, len(cols))
		n := 0
		for _, c := range cols[start:end] {
			n = max(n, len(c))
		}
		for i := 0; i < n; i++ {
			var b strings.Builder
			b.WriteString(" ")
			for _, c := range cols[start:end] {
				cell := ""
				if i < len(c) {
					cell = c[i]
				}
				b.WriteString(fit(cell, colW))
			}
			lines = append(lines, b.String())
		}
		lines = append(lines, "")
	}
	lines = append(lines,
		" The lists are sorted by impact; ▶ marks the selection, exp a finding that is by design, LIMIT a",
		" recompile limit hit. Preset bar changes apply on the next relaunch (r). n walks the checklist.",
		" Mouse wheel scrolls. Colours follow the terminal background; NO_COLOR or --no-color turn them off.")
	return th.box("Help · every key", m.helpv.window(lines, h-2), w, h, true)
}

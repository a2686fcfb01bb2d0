package tui

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/tui/cells"
)

// helpText is the `?` screen: every binding of the key table under each scope it works in ("Everywhere",
// "Lists", "Log", …), the groups flowed into as many columns as fit w.
func (m *Model) helpText(w int) []string {
	th := m.th
	var groups [][]string
	colW := 0
	for s := range numScopes {
		bs := m.keys.scopeHelp(s, m.opt.mode == modeOpen)
		if len(bs) == 0 {
			continue
		}
		g := []string{th.title.Render(scopeTitles[s])}
		for _, b := range bs {
			g = append(g, fmt.Sprintf("%s %s", th.key.Render(fmt.Sprintf("%-9s", b.Help().Key)), b.Help().Desc))
		}
		for _, l := range g {
			colW = max(colW, cells.Width(l)+3)
		}
		groups = append(groups, g)
	}
	lines := flowColumns(groups, max((w-4)/max(colW, 1), 1), colW)
	notes := helpNotes + helpRunNotes
	if m.opt.mode == modeOpen {
		notes = helpNotes
	}
	for _, l := range cells.Wrap(notes, w-4) {
		lines = append(lines, " "+l)
	}
	return lines
}

const helpNotes = "q closes a sub-screen and quits on the main screen (asking while a repro runs); in the detail " +
	"view l opens the log at the selected record. The lists are sorted by impact; ▶ marks the selection, exp a " +
	"finding that is by design, LIMIT a recompile limit hit, CATCH a compile error the program caught (its frame " +
	"did not compile; no process died of it), PEER a rank that died of its peer's failure (its collective lost " +
	"the rank that failed first). n walks the checklist. Mouse wheel scrolls. Colours follow the terminal " +
	"background; NO_COLOR or --no-color turn them off."

// helpRunNotes are the notes of a session that launches runs (not `open`).
const helpRunNotes = " Preset bar changes apply on the next relaunch (r)."

// flowColumns puts groups of lines one under the other (a blank line after each) in up to cols columns of
// colW cells, about as long as each other; a group is not split.
func flowColumns(groups [][]string, cols, colW int) []string {
	total := 0
	for _, g := range groups {
		total += len(g) + 1
	}
	target := (total + cols - 1) / cols
	col := [][]string{nil}
	for _, g := range groups {
		if c := col[len(col)-1]; len(c) > 0 && len(c)+len(g) > target && len(col) < cols {
			col = append(col, nil)
		}
		col[len(col)-1] = append(append(col[len(col)-1], g...), "")
	}
	n := 0
	for _, c := range col {
		n = max(n, len(c))
	}
	lines := make([]string, 0, n)
	for i := range n {
		var b strings.Builder
		b.WriteString(" ")
		for _, c := range col {
			cell := ""
			if i < len(c) {
				cell = c[i]
			}
			b.WriteString(cells.Fit(cell, colW))
		}
		lines = append(lines, b.String())
	}
	return lines
}

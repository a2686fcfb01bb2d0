package tui

import (
	"fmt"

	"github.com/torchtriage/torchtriage/tui/cells"
)

// runsBody is the session story: the sparkline of breaks and recompiles, then each run (newest first) with its
// state, counts, metric and note, what it fixed or broke against its base run and what changed since the run
// before. Without a run store it lists the runs in memory.
func (m *Model) runsBody(w, h int) []string {
	th := m.th
	rows := m.runRows()
	inner := w - 2
	head := m.storyHead(inner, h-2)
	title := fmt.Sprintf("Runs · %d this session · newest first", len(m.runs))
	if s := m.storyv.s; s != nil {
		title = fmt.Sprintf("Runs · session log · %d stored, %d this session · newest first", len(s.Runs), len(m.runs))
	}
	if len(rows) == 0 {
		if !m.storyv.building() {
			head = append(head, " no runs yet")
		}
		return th.box(title, head, w, h, true)
	}
	idx := min(m.runsv.idx, len(rows)-1) // layout clamped it; this guards a model changed without Update
	var lines []string
	at, end := 0, 0 // the selected row's lines
	for i, r := range rows {
		if i == idx {
			at = len(lines)
		}
		lines = append(lines, m.runLines(r, i == idx, inner)...)
		if i == idx {
			end = len(lines)
		}
	}
	lines = append(lines, "")
	for _, l := range cells.Wrap("• on screen  ◆ marked for diff (space)  d diffs the two marked runs, or the "+
		"selected one with the run before", max(inner-1, 8)) {
		lines = append(lines, th.dim.Render(" "+l))
	}
	body := append(head, scrollToRow(lines, at, end, h-2-len(head))...)
	return th.box(title, body, w, h, true)
}

// runState is a short state text without colour.
func runState(r *runView) string {
	if !r.done {
		if r.stalled {
			return "stalled"
		}
		return "running"
	}
	me := r.meta
	switch {
	case stopWords(me) != "":
		return stopWords(me) + " · " + clock(me.Duration())
	case me.Signal != "":
		return fmt.Sprintf("%s (%s) %s", me.State, me.Signal, clock(me.Duration()))
	case me.ExitCode != nil:
		return fmt.Sprintf("%s %d · %s", me.State, *me.ExitCode, clock(me.Duration()))
	}
	return string(me.State)
}

// scrollToRow is the h lines of lines on show with the selected row (lines[at:end]) whole where it fits, in the
// middle where the lines around it allow; a row taller than h shows from its first line.
func scrollToRow(lines []string, at, end, h int) []string {
	if h <= 0 || len(lines) <= h {
		return lines
	}
	off := max(min(at-max(h-(end-at), 0)/2, len(lines)-h), 0)
	return lines[off : off+h]
}

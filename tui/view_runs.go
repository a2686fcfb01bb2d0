package tui

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// runsState: cursor in the runs list (newest first) and up to two runs marked for a diff.
type runsState struct {
	idx    int
	marked []int
}

// newestFirst lists the session's runs, newest first.
func (m *Model) newestFirst() []*runView {
	out := slices.Clone(m.runs)
	slices.Reverse(out)
	return out
}

// runsKey: enter shows a run, space marks it for d (diff of the two marked, or of the selected and the one before).
func (m *Model) runsKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	runs := m.newestFirst()
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		m.runsv.idx = max(m.runsv.idx-1, 0)
	case key.Matches(msg, k.Down):
		m.runsv.idx = min(m.runsv.idx+1, max(len(runs)-1, 0))
	case len(runs) == 0:
		return nil, false
	case key.Matches(msg, k.Enter):
		m.show(runs[m.runsv.idx])
		m.screen = screenMain
	case key.Matches(msg, k.Mark):
		id := runs[m.runsv.idx].id
		if i := slices.Index(m.runsv.marked, id); i >= 0 {
			m.runsv.marked = slices.Delete(m.runsv.marked, i, i+1)
		} else {
			m.runsv.marked = append(m.runsv.marked, id)
			if len(m.runsv.marked) > 2 {
				m.runsv.marked = m.runsv.marked[1:]
			}
		}
	case key.Matches(msg, k.Diff):
		if len(m.runsv.marked) != 2 {
			m.show(runs[m.runsv.idx])
		}
		m.diffLatest()
	default:
		return nil, false
	}
	return nil, true
}

// runsBody lists this session's runs with their state and counts.
func (m *Model) runsBody(w, h int) []string {
	th := m.th
	runs := m.newestFirst()
	if len(runs) == 0 {
		return th.box("Runs", []string{" no runs yet"}, w, h, true)
	}
	m.runsv.idx = min(m.runsv.idx, len(runs)-1)
	var lines []string
	for i, r := range runs {
		mark := "  "
		if slices.Contains(m.runsv.marked, r.id) {
			mark = "◆ "
		}
		if r == m.cur {
			mark = mark[:1] + "•"
		}
		counts := "no findings yet"
		if r.snap != nil {
			c := r.snap.report.Counts
			counts = fmt.Sprintf("%s · %s · %s", plural(c.GraphBreaks, "break"), plural(c.Recompiles, "recompile"),
				plural(c.RecompileLimitHits, "limit hit"))
			if c.CompileErrors > 0 {
				counts += " · " + plural(c.CompileErrors, "error")
			}
		}
		line := fmt.Sprintf("%s#%-3d %-12s %-22s %s", mark, r.id, r.meta.Preset, runState(r), counts)
		if r.meta.RelaunchedFrom != "" {
			line += th.dim.Render("  (relaunch of " + r.meta.RelaunchedFrom + ")")
		}
		if r.label != "" {
			line = fmt.Sprintf("%s%s  %s", mark, r.label, counts)
		}
		if i == m.runsv.idx {
			line = th.sel.Render(fit(line, w-3))
		}
		lines = append(lines, " "+line)
	}
	lines = append(lines, "", th.dim.Render(" • on screen  ◆ marked for diff (space)  d diffs the two marked runs, or the selected one with the run before"))
	return th.box(fmt.Sprintf("Runs · %d this session · newest first", len(runs)), scrollTo(lines, m.runsv.idx, h-2), w, h, true)
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
	case me.Signal != "":
		return fmt.Sprintf("%s (%s) %s", me.State, me.Signal, clock(me.Duration()))
	case me.ExitCode != nil:
		return fmt.Sprintf("%s %d · %s", me.State, *me.ExitCode, clock(me.Duration()))
	}
	return string(me.State)
}

package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/story"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// listBox draws one list (breaks or recompiles) with its title, rows and scroll position.
func (m *Model) listBox(p pane, w, h int) []string {
	ls := &m.lists[p]
	focused := m.focus == p
	title := m.listTitle(p, w-6) // the box puts a title in its top edge in its width less 6
	inner := h - 2
	var body []string
	switch {
	case m.cur == nil || m.cur.snap == nil:
		body = []string{m.th.dim.Render(" " + m.waitingText())}
	case ls.len() == 0 && ls.pattern != "":
		body = []string{m.th.dim.Render(" nothing matches /" + ls.pattern)}
	case ls.len() == 0: // the why of an empty pane, wrapped: its reasons are worth reading whole
		for _, l := range cells.Wrap(emptyText(p, m.cur), w-3) {
			body = append(body, m.th.dim.Render(" "+l))
		}
	default:
		off := ls.first(inner)
		var shown []*row
		for i := off; i < min(off+inner, ls.len()); i++ {
			shown = append(shown, ls.at(i))
		}
		cols := m.columns(p, w-2, shown)
		for i := off; i < min(off+inner, ls.len()); i++ {
			body = append(body, m.rowLine(p, ls, i, cols, i == ls.idx, focused))
		}
	}
	return m.th.box(title, body, w, h, focused)
}

func (m *Model) waitingText() string {
	if m.loading {
		return "loading…"
	}
	if m.loadErr != "" {
		return m.loadErr
	}
	return "waiting for the repro's output…"
}

func emptyText(p pane, r *runView) string {
	what := "no graph breaks"
	if p == paneRecompiles {
		what = "no recompiles"
	}
	if r != nil && !r.done {
		return what + " so far"
	}
	if r != nil && r.snap != nil {
		if why := r.snap.uncounted(p); why != "" {
			return why // not "no graph breaks": nothing could show them
		}
		if a := r.snap.analysis; a != nil && a.Unfinished() != "" { // what it never reached is not shown
			return what + " up to where the run stopped"
		}
	}
	return what
}

// listTitle: "Graph breaks · 3 distinct · 7 records", "Breaks & errors · 1 break (2 records) · 1 runtime error",
// "Recompiles · 7 · limit hit", "Recompiles · not counted (nothing compiled)" (notCountedTitle), plus the filter.
// The left list is called "Graph breaks" only while it holds nothing else. Where a title longer than w cells
// counts other kinds, its records give way where that makes it fit ("1 break · 1 rank disagreement"); else the
// box cuts whole parts from its end.
func (m *Model) listTitle(p pane, w int) string {
	var s *snapshot
	if m.cur != nil {
		s = m.cur.snap
	}
	var filt string
	ls := &m.lists[p]
	if ls.pattern != "" {
		filt = fmt.Sprintf(" /%s %d of %d", ls.pattern, ls.len(), len(ls.rows))
	}
	done := m.cur != nil && m.cur.done
	if p == paneRecompiles {
		t := "Recompiles" + filt
		if none := s.notCountedTitle(p, t, w); done && none != "" {
			return none
		}
		if s != nil && s.report != nil {
			c := s.report.Counts
			if n, ok := s.titleCount(story.CountRecompiles, c.Recompiles); ok { // none of a live run's kind not logged
				t += " · " + n
			}
			if c.RecompileLimitHits > 0 {
				t += " · limit hit"
			}
		}
		return t
	}
	if s == nil || s.report == nil {
		return "Graph breaks" + filt
	}
	c := s.report.Counts
	head, parts := leftTitle(ls.rows, c, s.analysis != nil && s.analysis.CountsAreFloors())
	if none := s.notCountedTitle(p, head+filt, w); len(parts) == 0 && done && none != "" {
		return none
	}
	distinct, counted := s.titleCount(story.CountGraphBreaks, c.GraphBreaks)
	records := plural(c.GraphBreakRecords, "record")
	if strings.HasPrefix(distinct, "≥") { // a run cut short: what it never reached is not counted
		records = "≥" + records
	}
	if len(parts) == 0 {
		if !counted { // a live run's kind not logged: no count yet says anything
			return head + filt
		}
		return fmt.Sprintf("%s%s · %s distinct · %s", head, filt, distinct, records)
	}
	if c.GraphBreaks > 0 && counted {
		noun := "breaks"
		if c.GraphBreaks == 1 {
			noun = "break"
		}
		full := head + filt + " · " + strings.Join(append([]string{fmt.Sprintf("%s %s (%s)", distinct, noun, records)}, parts...), " · ")
		short := head + filt + " · " + strings.Join(append([]string{distinct + " " + noun}, parts...), " · ")
		if cells.Width(full) > w && cells.Width(short) <= w {
			return short
		}
		return full
	}
	return head + filt + " · " + strings.Join(parts, " · ")
}

// column is one cell of a row: a field of the row, its offset in row.search (for match highlighting, -1 none).
type column struct {
	width int
	right bool
	site  bool // a "file.py:12 fn" text: cut with cutSite (the file from the left, never the line number)
	get   func(r *row) (text string, from int)
}

// columns lays out a list's row for an inner width: what, where, count, ranks, and a note for recompiles. The
// text columns get what the shown rows need, up to a share of the width; the last text column takes the rest.
func (m *Model) columns(p pane, iw int, shown []*row) []column {
	what := func(r *row) (string, int) { return r.what, 0 }
	where := func(r *row) (string, int) { return r.where, len(r.what) + 1 }
	note := func(r *row) (string, int) { return r.note, len(r.what) + len(r.where) + 2 }
	count := func(r *row) (string, int) { return fmt.Sprintf("×%d", r.count), -1 }
	ranks := func(r *row) (string, int) { return rankList(r.ranks, 3), -1 }
	tag := func(r *row) (string, int) { return rowTag(r), -1 }
	multi := m.cur != nil && m.cur.snap != nil && len(m.cur.snap.ranks) > 1
	need := func(get func(*row) (string, int)) int {
		n := 0
		for _, r := range shown {
			t, _ := get(r)
			n = max(n, cells.Width(t))
		}
		return n
	}
	rw, gaps := 0, 3
	if multi {
		rw, gaps = min(max(need(ranks), 2), 11), 4
	}
	cw := max(need(count), 2)
	if p == paneBreaks {
		rest := iw - 2 - cw - rw - 5 - gaps
		ww := min(need(what), max(rest-min(need(where), rest/2), 6))
		wh := min(need(where), rest-ww)
		return []column{{ww, false, false, what}, {wh, false, true, where}, {cw, true, false, count}, {rw, false, false, ranks},
			{5, false, false, tag}}
	}
	rest := iw - 2 - cw - rw - 5 - gaps - 1
	ww := min(need(what), max(rest*35/100, 6))
	wh := min(need(where), max(rest-ww-min(need(note), 16), 12))
	return []column{{ww, false, false, what}, {wh, false, true, where}, {cw, true, false, count}, {rw, false, false, ranks},
		{rest - ww - wh, false, false, note}, {5, false, false, tag}}
}

// rowTag marks limit hits, errors, GPU and compile-time findings and by-design findings.
func rowTag(r *row) string {
	switch {
	case r.limit:
		return "LIMIT"
	case r.expected && r.assumed: // a guess, marked as one (the detail says what it rests on)
		return "exp?"
	case r.expected:
		return "exp"
	case r.caught:
		return "CATCH"
	case r.peerGone:
		return "PEER"
	}
	return kindTags[r.kind]
}

// rowLine renders the i-th shown row of a list.
func (m *Model) rowLine(p pane, ls *listState, i int, cols []column, selected, focused bool) string {
	th := m.th
	r := ls.at(i)
	base := th.plain
	switch {
	case selected && focused:
		base = th.sel
	case selected:
		base = th.selBlur
	case r.expected:
		base = th.expected
	}
	hits := ls.found.Bytes(i) // matched byte offsets in row.search (none without a pattern)
	var b strings.Builder
	mark := "  "
	if selected {
		mark = "▶ "
	}
	b.WriteString(base.Render(mark))
	for ci, c := range cols {
		if c.width <= 0 {
			continue
		}
		text, from := c.get(r)
		shift := 0
		if c.site {
			text, shift = cells.CutSite(text, c.width)
		} else {
			text = cells.Cut(text, c.width)
		}
		pad := strings.Repeat(" ", c.width-cells.Width(text))
		st := base
		if c.right {
			b.WriteString(base.Render(pad))
			pad = ""
		}
		if tag := rowTag(r); tag != "" && ci == len(cols)-1 && !selected {
			st = tagStyle(th, r)
		}
		if from >= 0 && len(hits) > 0 {
			offs := hitsIn(hits, from+shift, len(text))
			if shift != 0 { // cut from the left: the "…" is no match
				offs = slices.DeleteFunc(offs, func(o int) bool { return o < len(cells.Ellipsis) })
			}
			b.WriteString(highlight(text, offs, st, base.Inherit(th.match)))
		} else {
			b.WriteString(st.Render(text))
		}
		b.WriteString(base.Render(pad))
		if ci < len(cols)-1 {
			b.WriteString(base.Render(" "))
		}
	}
	return b.String()
}

func tagStyle(th theme, r *row) lipgloss.Style {
	switch {
	case r.limit, r.kind == findings.KindCompileError, r.kind == findings.KindRuntimeError:
		return th.bad
	case r.expected:
		return th.expected
	case kindTags[r.kind] != "":
		return th.warn
	}
	return th.plain
}

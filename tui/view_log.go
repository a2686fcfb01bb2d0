package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// logBody draws the visible window of the log with line numbers, the marked line and search matches.
func (m *Model) logBody(w, h int) []string {
	th := m.th
	lv := m.logv
	if m.cur == nil {
		return th.box("Log", []string{" no run yet"}, w, h, true)
	}
	n, at := lv.index(m.cur)
	page := h - 2
	off := max(min(lv.off, n-page), 0) // layout clamped it; this guards a model changed without Update
	var lines []string
	var pos []int
	for i := off; i < min(off+page, n); i++ {
		pos = append(pos, at(i))
	}
	shown := m.cur.log.At(pos) // reads the shown window from the run's files; View changes nothing
	for k, i := 0, off; i < min(off+page, n); k, i = k+1, i+1 {
		l := shown[k]
		num := th.dim.Render(fmt.Sprintf("%7d ", at(i)+1))
		text := l.Text
		if lv.hoff > 0 {
			text = ansi.Cut(text, lv.hoff, lv.hoff+w)
		}
		switch {
		case i == lv.cur:
			text = th.sel.Render(fit(text, w-10))
		case l.Header:
			text = th.title.Render(text)
		case lv.query != "":
			text = markQuery(cut(text, w-10), lv.query, th.plain, th.match)
		}
		lines = append(lines, num+text)
	}
	title := "Log · run " + fmt.Sprint(m.cur.id)
	if m.opt.mode == modeOpen {
		title = "Log · " + strings.Join(m.opt.paths, " ")
	}
	return th.box(title, lines, w, h, true)
}

// logStatus: position, follow, rank filter, search.
func (m *Model) logStatus(w int) string {
	lv := m.logv
	n := 0
	if m.cur != nil {
		n, _ = lv.index(m.cur)
	}
	parts := []string{fmt.Sprintf("lines %d–%d of %d", min(lv.off+1, n), min(lv.off+lv.page, n), n)}
	if lv.follow && m.logGrows() {
		parts = append(parts, m.th.good.Render("following"))
	}
	if lv.rank >= 0 {
		parts = append(parts, fmt.Sprintf("rank %d only (f)", lv.rank))
	}
	if lv.hoff > 0 {
		parts = append(parts, fmt.Sprintf("from column %d (←/→)", lv.hoff+1))
	}
	if lv.query != "" {
		parts = append(parts, "/"+lv.query+" (n/N)")
	}
	return fit(" "+strings.Join(parts, " · "), w)
}

// markQuery highlights every occurrence of q in text (plain text in, styled text out).
func markQuery(text, q string, base, hl interface{ Render(...string) string }) string {
	lt, lq := strings.ToLower(text), strings.ToLower(q)
	if q == "" || !strings.Contains(lt, lq) || len(lt) != len(text) {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(lt, lq)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i] + hl.Render(text[i:i+len(q)]))
		text, lt = text[i+len(q):], lt[i+len(q):]
	}
}

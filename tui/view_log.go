package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/tui/cells"
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
	rowsOf := make([][]string, len(shown))
	for k, l := range shown {
		text := l.Text
		if lv.bare && !l.Header {
			text = withoutHead(text)
		}
		rowsOf[k] = []string{text}
		switch {
		case lv.wrap && !l.Header:
			rowsOf[k] = strings.Split(ansi.Hardwrap(text, max(w-10, 10), false), "\n")
		case lv.hoff > 0:
			rowsOf[k][0] = ansi.Cut(text, lv.hoff, lv.hoff+w)
		}
	}
	first := 0 // wrapped lines take more rows: the marked line stays on the page
	if c := lv.cur - off; lv.wrap && c >= 0 && c < len(rowsOf) {
		for used := 0; first <= c; first++ {
			used = 0
			for k := first; k <= c; k++ {
				used += len(rowsOf[k])
			}
			if used <= page {
				break
			}
		}
		first = min(first, c) // a line longer than the page starts it
	}
	for k := first; k < len(shown) && len(lines) < page; k++ {
		i, l := off+k, shown[k]
		num := th.dim.Render(fmt.Sprintf("%7d ", at(i)+1))
		for j, text := range rowsOf[k] {
			if len(lines) == page {
				break
			}
			switch {
			case i == lv.cur:
				text = th.sel.Render(cells.Fit(text, w-10))
			case l.Header:
				text = th.title.Render(text)
			case lv.query != "":
				text = markQuery(cells.Cut(text, w-10), lv.query, th.plain, th.match)
			}
			if j > 0 {
				num = strings.Repeat(" ", 8) // a wrapped line's rows under its number
			}
			lines = append(lines, num+text)
		}
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
	if lv.wrap { // a wrapped line takes rows of its own: how many lines fit is the page's to say
		parts[0] = fmt.Sprintf("from line %d of %d", min(lv.off+1, n), n)
	}
	if lv.follow && m.logGrows() {
		parts = append(parts, m.th.good.Render("following"))
	}
	if lv.rank >= 0 {
		parts = append(parts, fmt.Sprintf("rank %d only (f)", lv.rank))
	}
	if lv.hoff > 0 {
		parts = append(parts, fmt.Sprintf("from column %d (←/→)", lv.hoff+1))
	}
	if lv.bare {
		parts = append(parts, "log prefixes hidden (P)")
	}
	if lv.wrap {
		parts = append(parts, "wrapped (W)")
	}
	if lv.query != "" {
		q := "/" + lv.query
		if i, total, ok := lv.matchOf(n); ok {
			q += fmt.Sprintf(": match %d of %d", i, total)
		} else if lv.hits != nil {
			q += fmt.Sprintf(": %d matches", len(lv.hits))
		}
		parts = append(parts, q+" (n/N)")
	}
	return cells.Fit(" "+strings.Join(parts, " · "), w)
}

// withoutHead is a log line without its glog or C++ head (level, time, pid, emitter: logparse.LineHead); its rank
// prefix and its body, the compile id first, stay.
func withoutHead(text string) string {
	from, to, ok := logparse.LineHead([]byte(text))
	if !ok {
		return text
	}
	return text[:from] + text[to:]
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

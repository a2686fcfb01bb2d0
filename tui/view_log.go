package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/torchtriage/torchtriage/triage/session"
)

// logState is the log view: scroll position, follow mode, search and rank filter.
type logState struct {
	off    int // first shown position (in the filtered list when a rank filter is on)
	cur    int // marked position (a jump target or search hit), -1 none
	follow bool
	query  string
	rank   int // -1: every line
	page   int
	hoff   int     // horizontal scroll, cells
	filt   []int32 // positions of the filtered lines
	filtN  int     // lines scanned into filt
	filtR  int     // rank filt was built for
}

// openLog shows the log; at >= 0 jumps to that line, else follows the end.
func (m *Model) openLog(at int) {
	if m.screen != screenLog {
		m.back = m.screen
	}
	m.screen = screenLog
	lv := &m.logv
	if at >= 0 {
		lv.rank, lv.follow, lv.cur = -1, false, at
		lv.off = max(at-max(lv.page, 1)/2, 0)
		return
	}
	lv.follow, lv.cur = m.cur != nil && !m.cur.done, -1
	lv.rank = -1
	lv.off = 1 << 30
}

// lines returns how many lines are shown and the log index of a shown position.
func (lv *logState) index(b session.Log) (int, func(int) int) {
	if lv.rank < 0 {
		return len(b.Lines), func(i int) int { return i }
	}
	if lv.filtR != lv.rank || lv.filtN > len(b.Lines) {
		lv.filt, lv.filtN, lv.filtR = nil, 0, lv.rank
	}
	for ; lv.filtN < len(b.Lines); lv.filtN++ {
		if int(b.Lines[lv.filtN].Rank) == lv.rank {
			lv.filt = append(lv.filt, int32(lv.filtN))
		}
	}
	return len(lv.filt), func(i int) int { return int(lv.filt[i]) }
}

func (lv *logState) scrollBy(d int, m *Model) {
	lv.off = max(lv.off+d, 0)
	lv.follow = false
}

// search moves to the next (dir 1) or previous (-1) line containing q (case-insensitive unless q has capitals).
func (lv *logState) search(m *Model, q string, dir int, fresh bool) {
	if m.cur == nil {
		return
	}
	if q == "" {
		lv.query = ""
		return
	}
	lv.query = q
	n, at := lv.index(m.cur.log)
	if n == 0 {
		return
	}
	fold := strings.ToLower(q) == q
	start := lv.cur
	if start < 0 || fresh {
		start = lv.off - dir
		if fresh {
			start = lv.off - 1
		}
	}
	for k := 1; k <= n; k++ {
		i := ((start+dir*k)%n + n) % n
		text := m.cur.log.Lines[at(i)].Text
		if fold {
			text = strings.ToLower(text)
		}
		if strings.Contains(text, q) {
			lv.cur, lv.follow = i, false
			lv.off = max(i-max(lv.page, 1)/2, 0)
			return
		}
	}
	m.flash = "not found: " + q
}

// logKey: / search, n/N next/previous, F follow, f cycle the rank filter, scrolling.
func (m *Model) logKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := m.keys
	lv := &m.logv
	page := max(lv.page-1, 1)
	switch {
	case key.Matches(msg, k.Filter):
		m.startTyping(lv.query)
	case key.Matches(msg, k.NextMatch):
		lv.search(m, lv.query, 1, false)
	case key.Matches(msg, k.PrevMatch):
		lv.search(m, lv.query, -1, false)
	case key.Matches(msg, k.Follow):
		lv.follow = !lv.follow
	case key.Matches(msg, k.RankFilter):
		if m.cur != nil {
			lv.rank = nextRank(m.cur.log.Ranks(), lv.rank)
			lv.cur = -1
		}
	case key.Matches(msg, k.Left):
		lv.hoff = max(lv.hoff-20, 0)
	case key.Matches(msg, k.Right):
		lv.hoff += 20
	case key.Matches(msg, k.Up):
		lv.scrollBy(-1, m)
	case key.Matches(msg, k.Down):
		lv.scrollBy(1, m)
	case key.Matches(msg, k.PgUp):
		lv.scrollBy(-page, m)
	case key.Matches(msg, k.PgDown):
		lv.scrollBy(page, m)
	case key.Matches(msg, k.Top):
		lv.off, lv.follow = 0, false
	case key.Matches(msg, k.Bottom):
		lv.off, lv.follow = 1<<30, m.cur != nil && !m.cur.done
	case key.Matches(msg, k.Log):
		m.goBack()
	default:
		return nil, false
	}
	return nil, true
}

func nextRank(ranks []int, cur int) int {
	if len(ranks) == 0 {
		return -1
	}
	if cur < 0 {
		return ranks[0]
	}
	for i, r := range ranks {
		if r == cur && i+1 < len(ranks) {
			return ranks[i+1]
		}
	}
	return -1
}

// logBody draws the visible window of the log with line numbers, the marked line and search matches.
func (m *Model) logBody(w, h int) []string {
	th := m.th
	lv := &m.logv
	lv.page = h - 2
	if m.cur == nil {
		return th.box("Log", []string{" no run yet"}, w, h, true)
	}
	n, at := lv.index(m.cur.log)
	if lv.follow {
		lv.off = n - lv.page
	}
	lv.off = max(min(lv.off, n-lv.page), 0)
	var lines []string
	for i := lv.off; i < min(lv.off+lv.page, n); i++ {
		l := m.cur.log.Lines[at(i)]
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
	lv := &m.logv
	n := 0
	if m.cur != nil {
		n, _ = lv.index(m.cur.log)
	}
	parts := []string{fmt.Sprintf("lines %d–%d of %d", min(lv.off+1, n), min(lv.off+lv.page, n), n)}
	if lv.follow {
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

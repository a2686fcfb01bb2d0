package tui

import "github.com/torchtriage/torchtriage/tui/cells"

// The geometry of the screens. Update computes it after every message (window size, keys, batches), so a key
// does the same whether or not a frame was drawn before it; View only reads it.

// bodyHeight is the height of a screen's body: the terminal less the header (and the preset bar on the main
// screen), the status area (a message may take two lines) and the footer.
func (m *Model) bodyHeight(s screen) int {
	top := 1
	if s == screenMain {
		top += len(m.mainTop(m.w)) // the preset bar or the verdict, the "First failure:" and "Caught ×…" lines
	}
	return max(m.h-top-1-m.statusHeight(), 0) // the status area and the footer
}

// mainPanes is the main screen's layout: the heights of the breaks and recompiles boxes (side by side from
// wideFrom columns, stacked below) and of the recommended box under them (none on a short terminal).
func (m *Model) mainPanes() (lists [2]int, rec int) {
	w, h := m.w, m.bodyHeight(screenMain)
	if w >= wideFrom {
		rec = min(max(h/3, 4), 10)
	} else {
		rec = min(max(h/4, 4), 8)
	}
	if h < 12 {
		rec = 0
	}
	// a box of plain lines (the verdict, the live state) longer than that takes what the lists can spare: each
	// keeps a row (three lines: its borders and the row)
	if _, body, ok := m.plainRecommend(w); ok && rec > 0 && len(body)+2 > rec {
		spare := h - 3
		if w < wideFrom {
			spare = h - 6
		}
		rec = max(rec, min(len(body)+2, spare))
	}
	listH := h - rec
	if w >= wideFrom {
		lw := w * 45 / 100
		if n := max(m.listNeeds(paneBreaks, lw), m.listNeeds(paneRecompiles, w-lw)); rec > 0 && n < listH {
			grow := min(listH-n, max(m.recommendNeeds(w)-rec, 0)) // rows the lists leave empty
			return [2]int{listH - grow, listH - grow}, rec + grow
		}
		return [2]int{listH, listH}, rec
	}
	lists = [2]int{listH / 2, listH - listH/2}
	if rec == 0 {
		return lists, rec
	}
	// stacked (narrow): a list that needs fewer rows than its half gives them to the other, then to the
	// Recommended box as far as its text goes (an empty pane kept six rows while the box was cut to two)
	a, b := m.listNeeds(paneBreaks, w), m.listNeeds(paneRecompiles, w)
	switch {
	case a+b <= listH:
		grow := min(listH-a-b, max(m.recommendNeeds(w)-rec, 0))
		spare := listH - a - b - grow // what the box does not need goes back to the lists, half each
		return [2]int{a + spare/2, b + spare - spare/2}, rec + grow
	case a < lists[0]:
		return [2]int{a, listH - a}, rec
	case b < lists[1]:
		return [2]int{listH - b, b}, rec
	}
	return lists, rec
}

// listNeeds is how many lines a list's box takes to show all it has at width w: its rows, or the wrapped why of
// an empty pane, and its two borders.
func (m *Model) listNeeds(p pane, w int) int {
	ls := &m.lists[p]
	switch {
	case m.cur == nil || m.cur.snap == nil || ls.len() == 0 && ls.pattern != "":
		return 3
	case ls.len() == 0:
		return len(cells.Wrap(emptyText(p, m.cur), w-3)) + 2
	}
	return ls.len() + 2
}

// recommendNeeds is how many lines the Recommended box takes to show its whole text at width w.
func (m *Model) recommendNeeds(w int) int {
	if _, body, ok := m.plainRecommend(w); ok {
		return len(body) + 2
	}
	if r := m.selected(); r != nil {
		return len(m.recommendLines(r, w-3)) + 2
	}
	return 3
}

// listPage is how far pgup/pgdown move in the focused list: the rows it shows less one.
func (m *Model) listPage() int {
	panes, _ := m.mainPanes()
	return max(panes[m.last]-3, 1)
}

// textBody is the text of a text screen (detail, diff, ranks, timeline, help, info), built in Update and windowed
// by View.
type textBody struct {
	screen screen
	w      int
	title  string
	lines  []string
	mark   int // detail: the line of the selected evidence record
	built  bool
}

// layout runs after every message: the lists keep their cursors in view, the log its page and offset, the
// runs view its cursor; the text screen on show is built and its scroll clamped; renders it needs are cached.
func (m *Model) layout() {
	panes, _ := m.mainPanes()
	for p := range m.lists {
		m.lists[p].follow(panes[p] - 2)
	}
	m.layoutLog()
	m.text = textBody{}
	switch m.screen {
	case screenMain:
		m.cacheRecommend()
	case screenRuns:
		m.runsv.idx = min(m.runsv.idx, max(len(m.runRows())-1, 0))
	case screenDetail, screenDiff, screenRanks, screenTimeline, screenHelp, screenInfo:
		if m.screen == screenDetail {
			m.cachePlaybook()
		}
		m.text = m.buildText(m.screen)
		s, page := m.scrollOf(m.screen), max(m.bodyHeight(m.screen)-2, 1)
		if m.screen == screenDetail && m.det.reveal { // the evidence cursor moved: scroll it into view
			m.det.reveal = false
			if at := m.text.mark; at < s.off {
				s.off = max(at-1, 0)
			} else if at-s.off >= page-1 {
				s.off = at - page/2
			}
		}
		s.fit(len(m.text.lines), page)
	}
}

// cacheRecommend wraps the selected finding's playbook for the recommended box (Update calls it).
func (m *Model) cacheRecommend() {
	if r := m.selected(); r != nil && r.pb != nil {
		if k := recommendKey(r, m.w-3); m.pbText[k] == nil {
			m.pbText[k] = m.wrapRecommend(r, m.w-3)
		}
	}
}

// cachePlaybook renders the selected finding's playbook for the detail view once per width (its wrapping is not free;
// Update calls it, View reads the cache).
func (m *Model) cachePlaybook() {
	r := m.selected()
	if r == nil || r.pb == nil {
		return
	}
	if k := fullKey(r.pb, m.w-4); m.pbText[k] == nil {
		m.pbText[k] = renderPlaybook(r.pb, m.w-4, m.opt.color)
	}
}

// textOf is the text of a text screen: the one layout built, or (when the model was changed without Update,
// as tests do) built here without keeping it.
func (m *Model) textOf(s screen) textBody {
	if t := m.text; t.built && t.screen == s && t.w == m.w {
		return t
	}
	return m.buildText(s)
}

func (m *Model) buildText(s screen) textBody {
	t := textBody{screen: s, w: m.w, built: true}
	switch s {
	case screenDetail:
		t.title, t.lines, t.mark = m.detailText(m.w)
	case screenDiff:
		t.title, t.lines = m.diffText()
	case screenRanks:
		t.title, t.lines = m.ranksText(m.w)
	case screenTimeline:
		t.title, t.lines = m.timelineText(m.w)
	case screenHelp:
		t.title, t.lines = "Help · every key, by screen", m.helpText(m.w)
	case screenInfo:
		t.title, t.lines = m.infoText(m.w)
	}
	return t
}

// textScreen draws a text screen: its text in a box, from its scroll offset.
func (m *Model) textScreen(s screen, w, h int) []string {
	t := m.textOf(s)
	return m.th.box(t.title, m.scrollOf(s).window(t.lines, h-2), w, h, true)
}

package tui

import (
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// motion is what a move key does: a line, a page, or to an end.
type motion int

const (
	lineUp motion = iota
	lineDown
	pageUp
	pageDown
	toTop
	toBottom
)

// apply moves position i among n positions (0 to n-1), page positions for a page.
func (mo motion) apply(i, n, page int) int {
	switch mo {
	case lineUp:
		i--
	case lineDown:
		i++
	case pageUp:
		i -= page
	case pageDown:
		i += page
	case toTop:
		i = 0
	case toBottom:
		i = n - 1
	}
	return max(min(i, n-1), 0)
}

// scrollState is the offset of a text screen (diff, ranks, timeline, help, detail). Update sets total and page
// (layout.go) and keeps off within them; View only reads it.
type scrollState struct {
	off   int
	total int // lines of the text
	page  int // lines shown
}

// fit records the text's size and the page and clamps the offset.
func (s *scrollState) fit(total, page int) {
	s.total, s.page = total, page
	s.off = max(min(s.off, total-page), 0)
}

// move scrolls by a line, a page (less one line of context) or to an end.
func (s *scrollState) move(mo motion) {
	s.off = mo.apply(s.off, s.total-s.page+1, max(s.page-1, 1))
}

// window returns the h lines shown from the offset (clamped here, not stored: View calls it).
func (s scrollState) window(lines []string, h int) []string {
	if h <= 0 {
		return nil
	}
	off := max(min(s.off, len(lines)-h), 0)
	return lines[off:min(off+h, len(lines))]
}

func (m *Model) scrollOf(s screen) *scrollState {
	switch s {
	case screenDiff:
		return m.diffScroll()
	case screenRanks:
		return &m.ranksv
	case screenTimeline:
		return &m.tlv
	case screenHelp:
		return &m.helpv
	case screenInfo:
		return &m.infov
	case screenDetail:
		return &m.det.scroll
	}
	return nil
}

// move is a move key of the Move scope: the picker's cursor, the focused list's, the log's scroll, the runs
// view's and the checklist's cursors, or a text screen's scroll.
func (m *Model) move(mo motion) {
	if m.pre.picking {
		m.pre.pick = mo.apply(m.pre.pick, len(runs.Presets()), 4)
		return
	}
	switch m.screen {
	case screenMain:
		if ls := m.focused(); ls != nil {
			m.userPicks()
			ls.move(mo.apply(ls.idx, ls.len(), m.listPage()) - ls.idx)
		}
	case screenLog:
		m.logv.move(mo, m)
	case screenRuns:
		m.runsv.idx = mo.apply(m.runsv.idx, len(m.runRows()), max((m.bodyHeight(screenRuns)-2)/3, 1))
	case screenGuide:
		m.guide.idx = mo.apply(m.guide.idx, len(playbooks.Checklist()), 3)
	default:
		if s := m.scrollOf(m.screen); s != nil {
			s.move(mo)
		}
	}
}

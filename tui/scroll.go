package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// scrollState is the offset of a read-only text screen (diff, ranks, timeline, help).
type scrollState struct {
	off   int
	total int // lines at the last draw, to clamp
	page  int
}

// window returns the h lines shown and clamps the offset.
func (s *scrollState) window(lines []string, h int) []string {
	s.total, s.page = len(lines), h
	s.off = max(min(s.off, len(lines)-h), 0)
	if h <= 0 {
		return nil
	}
	return lines[s.off:min(s.off+h, len(lines))]
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
	}
	return nil
}

// scrollKey moves a text screen; it reports whether the key was one of its keys.
func (m *Model) scrollKey(msg tea.KeyPressMsg, s *scrollState) bool {
	if s == nil {
		return false
	}
	k := m.keys
	page := max(s.page-1, 1)
	switch {
	case key.Matches(msg, k.Up):
		s.off--
	case key.Matches(msg, k.Down):
		s.off++
	case key.Matches(msg, k.PgUp):
		s.off -= page
	case key.Matches(msg, k.PgDown):
		s.off += page
	case key.Matches(msg, k.Top):
		s.off = 0
	case key.Matches(msg, k.Bottom):
		s.off = s.total
	default:
		return false
	}
	s.off = max(min(s.off, s.total-s.page), 0)
	return true
}

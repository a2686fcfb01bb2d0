package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// startTyping focuses the input line: the focused list's fuzzy filter on the main screen, the search in the log.
func (m *Model) startTyping(value string) {
	m.typing = true
	m.input = inputLine{prompt: "/", limit: 200}
	m.input.set(value)
}

// inputDone is enter on the input line: the list filter stays, the log search runs, the note is saved.
func (m *Model) inputDone() tea.Cmd {
	m.typing = false
	if m.noteFor != nil {
		return m.saveNote()
	}
	if m.metricEdit {
		return m.saveMetric()
	}
	if m.screen == screenLog {
		return m.logv.search(m, m.input.value, 1, true)
	}
	return nil
}

// inputCancel is esc on the input line: it clears the list filter, drops the search or the note.
func (m *Model) inputCancel() {
	m.typing, m.noteFor, m.metricEdit = false, nil, false
	if m.screen == screenMain {
		m.clearFilter()
	}
}

// edit changes the input line; the list filter applies as you type (the log search on enter).
func (m *Model) edit(f func(in *inputLine)) {
	old := m.input.value
	f(&m.input)
	if m.input.value == old || m.screen != screenMain {
		return
	}
	if ls := m.focused(); ls != nil {
		ls.setPattern(strings.TrimSpace(m.input.value))
	}
}

// highlight renders text with the bytes at the given offsets (sorted, relative to text) in hl, the rest in base.
func highlight(text string, offs []int, base, hl lipgloss.Style) string {
	if len(offs) == 0 {
		return base.Render(text)
	}
	var b strings.Builder
	start, j := 0, 0
	inMatch := false
	flush := func(end int) {
		if end > start {
			if inMatch {
				b.WriteString(hl.Render(text[start:end]))
			} else {
				b.WriteString(base.Render(text[start:end]))
			}
		}
		start = end
	}
	for i := range text {
		for j < len(offs) && offs[j] < i {
			j++
		}
		m := j < len(offs) && offs[j] == i
		if m != inMatch {
			flush(i)
			inMatch = m
		}
	}
	flush(len(text))
	return b.String()
}

// hitsIn shifts the matched offsets of a row's search text to one of its fields: field starts at byte from and
// has n bytes.
func hitsIn(offs []int, from, n int) []int {
	var out []int
	for _, o := range offs {
		if o >= from && o < from+n {
			out = append(out, o-from)
		}
	}
	return out
}

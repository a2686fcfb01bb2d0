package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// startTyping focuses the input line: the focused list's fuzzy filter on the main screen, the search in the log.
func (m *Model) startTyping(value string) {
	m.typing = true
	m.input = inputLine{prompt: "/", limit: 200}
	m.input.set(value)
}

// typeKey edits the input; the list filter applies as you type, the log search on enter.
func (m *Model) typeKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Back):
		m.typing, m.noteFor = false, nil
		if m.screen == screenMain {
			if ls := m.focused(); ls != nil {
				ls.setPattern("")
			}
		}
		return nil
	case msg.String() == "enter":
		m.typing = false
		if m.noteFor != nil {
			return m.saveNote()
		}
		if m.screen == screenLog {
			m.logv.search(m, m.input.value, 1, true)
		}
		return nil
	case msg.String() == "ctrl+c":
		return m.quit()
	}
	if m.input.update(msg) && m.screen == screenMain {
		if ls := m.focused(); ls != nil {
			ls.setPattern(strings.TrimSpace(m.input.value))
		}
	}
	return nil
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

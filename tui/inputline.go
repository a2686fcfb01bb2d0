package tui

import (
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// inputLine is the one-line text input of the / filter and the log search: typing appends, backspace deletes,
// ctrl+u clears, ctrl+w deletes a word. (bubbles/textinput would pull a clipboard module into go.mod.)
type inputLine struct {
	prompt string
	value  string
	limit  int
}

func (in *inputLine) set(v string) { in.value = v }

// update applies a key and reports whether it changed the value.
func (in *inputLine) update(msg tea.KeyPressMsg) bool {
	old := in.value
	switch msg.String() {
	case "backspace", "ctrl+h":
		if in.value != "" {
			_, n := utf8.DecodeLastRuneInString(in.value)
			in.value = in.value[:len(in.value)-n]
		}
	case "ctrl+u":
		in.value = ""
	case "ctrl+w":
		v := in.value
		for len(v) > 0 && v[len(v)-1] == ' ' {
			v = v[:len(v)-1]
		}
		for len(v) > 0 && v[len(v)-1] != ' ' {
			v = v[:len(v)-1]
		}
		in.value = v
	default:
		if t := msg.Key().Text; t != "" && (in.limit == 0 || utf8.RuneCountInString(in.value) < in.limit) {
			in.value += clean(t)
		}
	}
	return in.value != old
}

// view is the prompt, the value and a block cursor.
func (in *inputLine) view(th theme) string {
	return in.prompt + in.value + th.sel.Render(" ")
}

// viewIn is view in at most w cells: a value too long for them shows its end, where the cursor is.
func (in *inputLine) viewIn(th theme, w int) string {
	room := w - width(in.prompt) - 2 // the cursor and the "…"
	if room < 1 || width(in.value) <= room+1 {
		return in.view(th)
	}
	return in.prompt + "…" + ansi.TruncateLeft(in.value, width(in.value)-room, "") + th.sel.Render(" ")
}

package tui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// inputLine is the one-line text input of the / filter, the log search and the run note: typing appends; the
// key table's input scope erases (bubbles/textinput would pull a clipboard module into go.mod).
type inputLine struct {
	prompt string
	value  string
	limit  int
}

func (in *inputLine) set(v string) { in.value = v }

// erase deletes the last character (backspace).
func (in *inputLine) erase() {
	_, n := utf8.DecodeLastRuneInString(in.value)
	in.value = in.value[:len(in.value)-n]
}

// eraseWord deletes the last word and the spaces after it (ctrl+w).
func (in *inputLine) eraseWord() {
	v := strings.TrimRight(in.value, " ")
	in.value = v[:strings.LastIndexByte(v, ' ')+1]
}

// clear empties the line (ctrl+u).
func (in *inputLine) clear() { in.value = "" }

// insert types text (control characters dropped) up to the limit.
func (in *inputLine) insert(t string) {
	if t != "" && (in.limit == 0 || utf8.RuneCountInString(in.value) < in.limit) {
		in.value += clean(t)
	}
}

// view is the prompt, the value and a block cursor.
func (in *inputLine) view(th theme) string {
	return in.prompt + in.value + th.sel.Render(" ")
}

// viewIn is view in at most w cells: a value too long for them shows its end, where the cursor is.
func (in *inputLine) viewIn(th theme, w int) string {
	room := w - cells.Width(in.prompt) - 2 // the cursor and the "…"
	if room < 1 || cells.Width(in.value) <= room+1 {
		return in.view(th)
	}
	return in.prompt + "…" + ansi.TruncateLeft(in.value, cells.Width(in.value)-room, "") + th.sel.Render(" ")
}

package tui

import "github.com/torchtriage/torchtriage/tui/cells"

// hang is text word-wrapped to lines of at most w text cells (cells.Wrap), each after its lead: first before the
// first line, rest before the others (a hanging indent). The leads may be styled; w counts the text only, so the
// caller chooses the room its leads and margins leave, and the floor below which it does not narrow.
func hang(text string, w int, first, rest string) []string {
	lines := cells.Wrap(text, w)
	for i, l := range lines {
		lead := rest
		if i == 0 {
			lead = first
		}
		lines[i] = lead + l
	}
	return lines
}

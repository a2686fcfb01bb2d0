// Package cells fits plain or styled (ANSI) text to terminal cells for the TUI's screens: cut to a width with an
// ellipsis, at a word or after the last whole " · " part, a "file.py:12 fn" site cut from the left, padded lines,
// word wrap, two texts spread over one line. Widths are display cells, measured and cut with x/ansi. It knows
// nothing of the analysis or of Bubble Tea.
package cells

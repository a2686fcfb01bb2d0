// Package narrow is the lists' fuzzy filter as it is typed: which of a list's search texts match a pattern, and
// at which bytes, as sahilm/fuzzy finds them (FindFromNoSort), with less work a keystroke. A pattern that grows
// is looked for only among the matches of the pattern before it (a text that matches a pattern matches each of
// its prefixes); a backspace finds the shorter pattern's result kept; a text that cannot hold the pattern's
// letters in order (ASCII, lowered once) is passed over without running the matcher. It draws nothing: the tui
// highlights the bytes and shows the rows.
package narrow

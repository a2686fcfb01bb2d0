// Package narrow is the lists' fuzzy filter as it is typed: which of a list's search texts match a pattern, and
// at which bytes, as sahilm/fuzzy finds them (FindFromNoSort), with less work a keystroke. A pattern that grows
// is looked for only among the matches of the pattern before it (a text that matches a pattern matches each of
// its prefixes); a backspace finds the shorter pattern's result kept; a text (folded once) matches an ASCII pattern
// when it holds the pattern's letters in order, found without running the matcher, which finds the matched bytes
// only of the rows a screen shows. It draws nothing: the tui highlights the bytes and shows the rows.
package narrow

package text

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Options fit text output to where it is shown: the width to wrap prose and cut evidence at, and whether
// only ASCII may be printed (a dumb or old terminal, a non-UTF-8 locale). The caller detects both; the
// renderers only obey them. JSON and Markdown take no options: they are read elsewhere.
type Options struct {
	Width int  // columns; 0 means DefaultWidth
	ASCII bool // ASCII only: · × — – … → become - x -- - ... ->, other non-ASCII runes ?
}

// DefaultWidth is the width when none is known.
const DefaultWidth = 80

// minWrap is the narrowest a wrapped line's text may get, however deep its indentation.
const minWrap = 16

// Cols is the width to fit.
func (o Options) Cols() int {
	if o.Width <= 0 {
		return DefaultWidth
	}
	return o.Width
}

// Ellipsis marks text cut to fit.
func (o Options) Ellipsis() string {
	if o.ASCII {
		return "..."
	}
	return "…"
}

var asciiGlyphs = strings.NewReplacer("·", "-", "×", "x", "—", "--", "–", "-", "…", "...", "→", "->", "←", "<-",
	"“", `"`, "”", `"`, "‘", "'", "’", "'", "≥", ">=", "≤", "<=", "▸", ">", "•", "*", "§", "S", "\u00a0", " ")

// Glyphs is s as the options allow: unchanged, or ASCII (the typographic marks spelled out, anything else
// non-ASCII as ?). Text is made ASCII before it is measured, since "—" becomes two columns.
func (o Options) Glyphs(s string) string {
	if !o.ASCII {
		return s
	}
	s = asciiGlyphs.Replace(s)
	for _, r := range s {
		if r >= 0x80 {
			return strings.Map(func(r rune) rune {
				if r >= 0x80 {
					return '?'
				}
				return r
			}, s)
		}
	}
	return s
}

// Writer prints lines fitted to Options.
type Writer struct {
	w io.Writer
	o Options
}

// NewWriter prints to w with the options o.
func NewWriter(w io.Writer, o Options) *Writer { return &Writer{w: w, o: o} }

// Blank prints an empty line.
func (t *Writer) Blank() { fmt.Fprintln(t.w) }

// Line prints one line of prose: its indentation kept, the text wrapped at spaces to the width (a word wider
// than a whole line is broken), continuation lines indented by hang columns.
func (t *Writer) Line(hang int, s string) {
	s = t.o.Glyphs(s)
	body := strings.TrimLeft(s, " ")
	indent := len(s) - len(body)
	cols := t.o.Cols()
	for i, l := range wrap(body, max(cols-indent, minWrap), max(cols-hang, minWrap), "") {
		pad := indent
		if i > 0 {
			pad = hang
		}
		fmt.Fprintln(t.w, strings.Repeat(" ", pad)+l)
	}
}

// Linef is Line with a format.
func (t *Writer) Linef(hang int, format string, a ...any) {
	t.Line(hang, fmt.Sprintf(format, a...))
}

// Items prints items joined by sep, breaking lines only between items (one wider than a line is wrapped on
// its own); the first item's indentation is kept, continuation lines are indented by hang columns.
func (t *Writer) Items(hang int, sep string, items ...string) {
	if len(items) == 0 {
		return
	}
	cols, sep := t.o.Cols(), t.o.Glyphs(sep)
	line := t.o.Glyphs(items[0])
	flush := func() {
		if textWidth(line) > cols {
			t.Line(hang, line)
		} else {
			fmt.Fprintln(t.w, strings.TrimRight(line, " "))
		}
	}
	tail := textWidth(strings.TrimRight(sep, " ")) // what ends a line that more items follow
	for i, it := range items[1:] {
		it = t.o.Glyphs(it)
		room := cols
		if i < len(items)-2 {
			room -= tail // the separator after it must fit too, or it would make a line of its own
		}
		if textWidth(line+sep+it) <= room {
			line += sep + it
			continue
		}
		line += strings.TrimRight(sep, " ")
		flush()
		line = strings.Repeat(" ", hang) + it
	}
	flush()
}

// textWidth is ansi.StringWidth, counted a column a rune when every rune is one of narrowRune's (a report's
// text and its glyphs: – · … → ≤), through ansi.StringWidth otherwise.
func textWidth(s string) int {
	n := 0
	for i := 0; i < len(s); n++ {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !narrowRune(r) {
			return ansi.StringWidth(s)
		}
		i += size
	}
	return n
}

// narrowRune: one column, alone or beside any other such rune (no combining mark, control, zero-width or wide
// rune; TestTextWidthMatchesANSI checks each against ansi.StringWidth).
func narrowRune(r rune) bool {
	return r >= 0xa0 && r < 0x300 && r != 0xad || // Latin-1 and Latin extended (not the soft hyphen)
		r >= 0x2010 && r <= 0x2027 || r >= 0x2030 && r <= 0x205e || // dashes, quotes, bullets, …
		r >= 0x2190 && r <= 0x22ff // arrows, mathematical operators
}

// wrap breaks s into lines at spaces and after any of breaks, the first line at most first columns wide, the
// others rest; a word wider than a line is broken. (ansi.Wrap also breaks after every hyphen, which splits
// "-NCCL_DEBUG" and "mode="reduce-overhead"", and has one width for all lines.)
// A line is measured once, by adding the widths of its words as they are placed (not the whole line again for
// each word), and a text that fits whole is not cut into words at all.
func wrap(s string, first, rest int, breaks string) []string {
	if t := strings.TrimRight(s, " "); textWidth(t) <= first && (breaks == "" || !strings.ContainsAny(t, breaks)) {
		return []string{t}
	}
	var lines []string
	line, width, limit := "", 0, first
	for _, p := range pieces(s, breaks) {
		ww := textWidth(p.word)
		if line != "" && width+len(p.glue)+ww <= limit {
			line, width = line+p.glue+p.word, width+len(p.glue)+ww
			continue
		}
		if line != "" {
			lines, line, limit = append(lines, line), "", rest
		}
		for ww > limit {
			head := ansi.Truncate(p.word, limit, "")
			if head == "" { // a character wider than the line
				_, n := utf8.DecodeRuneInString(p.word)
				head = p.word[:n]
			}
			lines, p.word, limit = append(lines, head), p.word[len(head):], rest
			ww = textWidth(p.word)
		}
		line, width = p.word, ww
	}
	return append(lines, line)
}

// piece is a word with the spaces before it (none after a break character).
type piece struct{ glue, word string }

func pieces(s, breaks string) []piece {
	var out []piece
	var glue, word strings.Builder
	emit := func() {
		out = append(out, piece{glue.String(), word.String()})
		glue.Reset()
		word.Reset()
	}
	for _, r := range s {
		switch {
		case r == ' ':
			if word.Len() > 0 {
				emit()
			}
			glue.WriteRune(r)
		case strings.ContainsRune(breaks, r):
			word.WriteRune(r)
			emit()
		default:
			word.WriteRune(r)
		}
	}
	if word.Len() > 0 {
		emit()
	}
	return out
}

package playbooks

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The coloured rendering reads the same blocks as renderPlain (a playbook's Markdown is headings, numbered and
// bulleted lists, paragraphs and `code`). Every word is styled on its own, so a line the TUI cuts, or the pane
// border next to it, never inherits a style from the line before; a code span loses its backticks and keeps its
// colour across the spaces inside it. It replaced glamour, whose syntax highlighter (chroma) alone cost ~15 ms of
// package initialisation in every command, the TUI's first frame included.
var (
	styleTitle   = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("228")).Background(lipgloss.Color("63"))
	styleMeta    = lipgloss.NewStyle().Foreground(lipgloss.Color("245"))
	styleHeading = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("39"))
	styleMarker  = lipgloss.NewStyle().Foreground(lipgloss.Color("39"))
	styleCode    = lipgloss.NewStyle().Foreground(lipgloss.Color("203")).Background(lipgloss.Color("236"))
	styleLink    = lipgloss.NewStyle().Underline(true).Foreground(lipgloss.Color("30"))
)

// styledMargin is the left margin of the coloured rendering.
const styledMargin = "  "

// word is one word of a block (what lies between two spaces): its pieces, each in its style, and whether the
// space before it is inside a code span (styled as the span is).
type word struct {
	pieces []piece
	inSpan bool
}

type piece struct {
	text  string
	style *lipgloss.Style // nil: plain
}

func (w word) width() int {
	n := 0
	for _, p := range w.pieces {
		n += ansi.StringWidth(p.text)
	}
	return n
}

func (w word) String() string {
	var b strings.Builder
	for _, p := range w.pieces {
		if p.style == nil {
			b.WriteString(p.text)
		} else {
			b.WriteString(p.style.Render(p.text))
		}
	}
	return b.String()
}

func renderStyled(p *Playbook, width int) string {
	var b strings.Builder
	inner := width - len(styledMargin)
	meta, matches := header(p)
	for _, line := range strings.Split(ansi.Wrap(p.Title, inner-2, ""), "\n") {
		b.WriteString(styledMargin + styleTitle.Render(" "+strings.TrimRight(line, " ")+" ") + "\n")
	}
	b.WriteString("\n")
	for _, text := range []string{meta, matches} {
		writeWords(&b, "", plainWords(text, &styleMeta), inner)
	}
	for _, blk := range blocks(p.Body) {
		if blk.heading {
			b.WriteString("\n")
			writeWords(&b, "", plainWords(strings.ToUpper(blk.text), &styleHeading), inner)
			continue
		}
		marker := blk.marker
		if marker == "- " || marker == "* " {
			marker = "• "
		}
		writeWords(&b, marker, inlineWords(blk.text), inner)
	}
	return b.String()
}

// plainWords are the words of text, all in one style.
func plainWords(text string, st *lipgloss.Style) []word {
	var ws []word
	for _, f := range strings.Fields(text) {
		ws = append(ws, word{pieces: []piece{{f, st}}})
	}
	return ws
}

// inlineWords are the words of a block's text: `code` spans (without their backticks) and links styled, the rest
// plain; a word may hold both ("`x`;"). An unmatched backtick stays as it is.
func inlineWords(text string) []word {
	if strings.Count(text, "`")%2 == 1 {
		i := strings.LastIndex(text, "`")
		text = text[:i] + "\x00" + text[i+1:] // kept as a character, put back below
	}
	var ws []word
	var cur word
	var run strings.Builder
	code := false
	end := func() { // the run of one style ends
		if run.Len() > 0 {
			t := strings.ReplaceAll(run.String(), "\x00", "`")
			var st *lipgloss.Style
			if code {
				st = &styleCode
			} else if strings.HasPrefix(t, "https://") || strings.HasPrefix(t, "http://") {
				st = &styleLink
			}
			cur.pieces = append(cur.pieces, piece{t, st})
			run.Reset()
		}
	}
	for _, r := range text {
		switch {
		case r == '`':
			end()
			code = !code
		case r == ' ' || r == '\t':
			end()
			if len(cur.pieces) > 0 {
				ws = append(ws, cur)
			}
			cur = word{inSpan: code}
		default:
			run.WriteRune(r)
		}
	}
	end()
	if len(cur.pieces) > 0 {
		ws = append(ws, cur)
	}
	return ws
}

// writeWords wraps words to width behind the margin, marker first and a hanging indent after it; a word wider
// than a line is cut (a URL).
func writeWords(b *strings.Builder, marker string, ws []word, width int) {
	indent := strings.Repeat(" ", ansi.StringWidth(marker))
	if len(indent) >= width/2 {
		indent = ""
	}
	room := width - len(indent)
	line, used := styledMargin+styleMarker.Render(marker), 0
	if marker == "" {
		line = styledMargin
	}
	flush := func() {
		b.WriteString(line + "\n")
		line, used = styledMargin+indent, 0
	}
	for _, w := range splitWide(ws, room) {
		n := w.width()
		if used > 0 && used+1+n > room {
			flush()
		}
		if used > 0 {
			if w.inSpan {
				line += styleCode.Render(" ") // a code span keeps its colour between its words
			} else {
				line += " "
			}
			used++
		}
		line += w.String()
		used += n
	}
	if used > 0 || marker != "" {
		flush()
	}
}

// splitWide cuts every word wider than room into pieces that fit, each in its style (a URL, a long path).
func splitWide(ws []word, room int) []word {
	out := ws[:0:0]
	for _, w := range ws {
		if room < 1 || w.width() <= room {
			out = append(out, w)
			continue
		}
		cur, used := word{inSpan: w.inSpan}, 0
		for _, p := range w.pieces {
			for _, r := range p.text {
				rw := ansi.StringWidth(string(r))
				if used+rw > room && used > 0 {
					out = append(out, cur)
					cur, used = word{}, 0
				}
				if n := len(cur.pieces); n > 0 && cur.pieces[n-1].style == p.style {
					cur.pieces[n-1].text += string(r)
				} else {
					cur.pieces = append(cur.pieces, piece{string(r), p.style})
				}
				used += rw
			}
		}
		out = append(out, cur)
	}
	return out
}

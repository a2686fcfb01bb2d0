package playbooks

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Render formats a playbook for a terminal of the given width: with color styled
// (render_styled.go), otherwise wrapped plain text, the same words in both. Callers honour
// NO_COLOR by passing color=false. A width below 16 is treated as 16, zero or
// less as 80.
func Render(p *Playbook, width int, color bool) string {
	if p == nil {
		return ""
	}
	switch {
	case width <= 0:
		width = 80
	case width < 16:
		width = 16
	}
	if color {
		if out := renderStyled(p, width); fits(out, width) {
			return out
		}
	}
	return renderPlain(p, width)
}

func header(p *Playbook) (meta, matches string) {
	meta = fmt.Sprintf("%s · %s · %s · verify with preset %s", p.ID, p.Severity, p.Category, p.Preset)
	if p.FromRegistry() {
		meta += " · from PyTorch's graph-break registry (torch " + RegistryTorch + ")"
	}
	parts := []string{strings.Join(KindStrings(p.Match.Kinds), ", ")}
	if len(p.Match.GBIDs) > 0 {
		parts = append(parts, strings.Join(p.Match.GBIDs, ", "))
	}
	if len(p.Match.Guards) > 0 {
		parts = append(parts, "guards: "+strings.Join(p.Match.Guards, ", "))
	}
	return meta, "matches: " + strings.Join(parts, "; ")
}

func fits(s string, width int) bool {
	for _, line := range strings.Split(s, "\n") {
		if ansi.StringWidth(line) > width {
			return false
		}
	}
	return true
}

// renderPlain reflows the Markdown body: headings become upper-case labels,
// list items get a hanging indent, long words are broken at the width.
func renderPlain(p *Playbook, width int) string {
	var b strings.Builder
	meta, matches := header(p)
	writeWrapped(&b, "", p.Title, width)
	writeWrapped(&b, "", meta, width)
	writeWrapped(&b, "", matches, width)
	for _, blk := range blocks(p.Body) {
		if blk.heading {
			b.WriteString("\n")
			writeWrapped(&b, "", strings.ToUpper(blk.text), width)
			continue
		}
		writeWrapped(&b, blk.marker, blk.text, width)
	}
	return b.String()
}

type block struct {
	heading bool
	marker  string // "1. ", "- " or "" for paragraphs
	text    string
}

// blocks splits a Markdown body into headings, list items and paragraphs,
// joining continuation lines.
func blocks(body string) []block {
	var out []block
	open := false
	for _, raw := range strings.Split(body, "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case line == "":
			open = false
		case strings.HasPrefix(raw, "#"):
			out = append(out, block{heading: true, text: strings.TrimSpace(strings.TrimLeft(line, "#"))})
			open = false
		case raw == strings.TrimLeft(raw, " \t") && (numberedItem.MatchString(line) || bulletItem.MatchString(line)):
			re := bulletItem
			if numberedItem.MatchString(line) {
				re = numberedItem
			}
			loc := re.FindStringIndex(line)
			marker := strings.TrimSpace(line[:loc[1]]) + " "
			out = append(out, block{marker: marker, text: strings.TrimSpace(line[loc[1]:])})
			open = true
		case open:
			out[len(out)-1].text += " " + line
		default:
			out = append(out, block{text: line})
			open = true
		}
	}
	return out
}

func writeWrapped(b *strings.Builder, marker, text string, width int) {
	indent := strings.Repeat(" ", len(marker))
	if len(indent) >= width/2 {
		indent = ""
	}
	limit := width - len(indent)
	wrapped := ansi.Wrap(marker+text, limit, "")
	if marker != "" && !strings.Contains(text, " ") {
		wrapped = ansi.Hardwrap(marker+text, limit, true) // one long token, e.g. a URL
	}
	for i, line := range strings.Split(wrapped, "\n") {
		line = strings.TrimRight(line, " ")
		if i > 0 {
			line = indent + line
		}
		b.WriteString(line)
		b.WriteString("\n")
	}
}

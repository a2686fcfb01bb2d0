package tui

import (
	"strings"

	"github.com/torchtriage/torchtriage/tui/cells"
)

type borderSet struct{ tl, tr, bl, br, h, v string }

var (
	thinBorder  = borderSet{"┌", "┐", "└", "┘", "─", "│"}
	heavyBorder = borderSet{"┏", "┓", "┗", "┛", "━", "┃"}
)

// box draws body inside a border with the title in the top edge. It returns exactly h lines of exactly w cells
// (nothing when w < 4 or h < 2). The focused box has a heavy, accented border, so focus shows without colour.
func (t theme) box(title string, body []string, w, h int, focused bool) []string {
	if w < 4 || h < 2 {
		return cells.PadLines(nil, max(w, 0), max(h, 0))
	}
	b, st, tst := thinBorder, t.border, t.title
	if focused {
		b, st, tst = heavyBorder, t.accent, t.accent
	}
	inner := w - 2
	out := make([]string, 0, h)
	if title != "" && inner >= 5 {
		title = cells.CutParts(title, inner-4) // at least one border cell before the corner
		out = append(out, st.Render(b.tl+b.h+" ")+tst.Render(title)+" "+
			st.Render(strings.Repeat(b.h, max(inner-cells.Width(title)-3, 0))+b.tr))
	} else {
		out = append(out, st.Render(b.tl+strings.Repeat(b.h, inner)+b.tr))
	}
	lines := cells.PadLines(body, inner, h-2)
	side := st.Render(b.v)
	for _, l := range lines {
		out = append(out, side+l+side)
	}
	out = append(out, st.Render(b.bl+strings.Repeat(b.h, inner)+b.br))
	return out
}

// hjoin puts blocks of equal height side by side.
func hjoin(blocks ...[]string) []string {
	if len(blocks) == 0 {
		return nil
	}
	out := make([]string, len(blocks[0]))
	for i := range out {
		var sb strings.Builder
		for _, b := range blocks {
			if i < len(b) {
				sb.WriteString(b[i])
			}
		}
		out[i] = sb.String()
	}
	return out
}

package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// theme holds every style the views use. Without colour (NO_COLOR, --no-color) only bold, faint, underline and
// reverse are used, so the focused pane, the selection and matches stay visible.
type theme struct {
	color bool
	dark  bool

	plain    lipgloss.Style
	title    lipgloss.Style // header, box titles
	dim      lipgloss.Style // secondary text
	key      lipgloss.Style // key names in hints
	accent   lipgloss.Style // the focused pane's border and title
	border   lipgloss.Style // other borders
	sel      lipgloss.Style // selected row in the focused list
	selBlur  lipgloss.Style // selected row in the other list
	match    lipgloss.Style // fuzzy-filter matches
	good     lipgloss.Style // done, agree, exit 0
	warn     lipgloss.Style // stalls, disagreement, limit hits
	bad      lipgloss.Style // errors, kills
	expected lipgloss.Style // by-design findings
	badge    lipgloss.Style // "demo · recording"
	bars     [5]lipgloss.Style
}

// newTheme builds the styles for a colour setting and background.
func newTheme(useColor, dark bool) theme {
	t := theme{color: useColor, dark: dark}
	s := lipgloss.NewStyle()
	t.plain = s
	t.title = s.Bold(true)
	t.dim = s.Faint(true)
	t.key = s.Bold(true)
	t.accent = s.Bold(true)
	t.border = s
	t.sel = s.Reverse(true)
	t.selBlur = s.Underline(true)
	t.match = s.Underline(true).Bold(true)
	t.good = s.Bold(true)
	t.warn = s.Bold(true)
	t.bad = s.Bold(true)
	t.expected = s.Faint(true)
	t.badge = s.Reverse(true)
	for i := range t.bars {
		t.bars[i] = s
	}
	if !useColor {
		return t
	}
	ld := lipgloss.LightDark(dark)
	c := func(light, darkHex string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(darkHex)) }
	accent := c("#005fd7", "#5fafff")
	t.title = s.Bold(true).Foreground(c("#1c1c1c", "#eeeeee"))
	t.dim = s.Foreground(c("#6c6c6c", "#8a8a8a"))
	t.key = s.Bold(true).Foreground(accent)
	t.accent = s.Bold(true).Foreground(accent)
	t.border = s.Foreground(c("#a8a8a8", "#585858"))
	t.sel = s.Bold(true).Foreground(c("#ffffff", "#000000")).Background(accent)
	t.selBlur = s.Background(c("#d0d0d0", "#3a3a3a"))
	t.match = s.Bold(true).Underline(true).Foreground(c("#af5f00", "#ffd75f"))
	t.good = s.Foreground(c("#008700", "#5fd75f"))
	t.warn = s.Bold(true).Foreground(c("#af5f00", "#ffaf00"))
	t.bad = s.Bold(true).Foreground(c("#d70000", "#ff5f5f"))
	t.expected = s.Foreground(c("#6c6c6c", "#8a8a8a")).Italic(true)
	t.badge = s.Bold(true).Foreground(c("#ffffff", "#000000")).Background(c("#875fd7", "#af87ff"))
	t.bars = [5]lipgloss.Style{
		s.Foreground(c("#d70000", "#ff5f5f")), // breaks
		s.Foreground(c("#af5f00", "#ffaf00")), // recompiles
		s.Foreground(c("#d7005f", "#ff5faf")), // limit hits
		s.Foreground(c("#005fd7", "#5fafff")), // other compile events
		s.Foreground(c("#6c6c6c", "#8a8a8a")), // stalls
	}
	return t
}

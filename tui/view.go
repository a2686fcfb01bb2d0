package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// The smallest terminal the layout is drawn for; below it one line says so.
const (
	minWidth  = 40
	minHeight = 10
	wideFrom  = 100 // side by side from this width, stacked below
)

// View draws the whole screen: exactly m.h lines of at most m.w cells.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "torchtriage"
	return v
}

// render is the screen as text (what the golden files hold, colour stripped).
func (m *Model) render() string { return strings.Join(m.screenLines(), "\n") }

func (m *Model) screenLines() []string {
	w, h := m.w, m.h
	if w < minWidth || h < minHeight {
		return cells.PadLines(cells.Wrap("torchtriage: the terminal is too small (need 40×10)", w), w, h)
	}
	if m.quitting() {
		return cells.PadLines(append([]string{m.headerLine(w), ""}, cells.Wrap(" "+m.quitText(), w)...), w, h)
	}
	top := []string{m.headerLine(w)}
	if m.screen == screenMain {
		top = append(top, m.mainTop(w)...)
	}
	bodyH := m.bodyHeight(m.screen)
	var body []string
	switch m.screen {
	case screenDetail, screenDiff, screenRanks, screenTimeline, screenHelp, screenInfo:
		body = m.textScreen(m.screen, w, bodyH)
	case screenLog:
		body = m.logBody(w, bodyH)
	case screenRuns:
		body = m.runsBody(w, bodyH)
	case screenGuide:
		body = m.guideBody(w, bodyH)
	default:
		body = m.mainBody(w, bodyH)
	}
	out := make([]string, 0, h)
	out = append(out, top...)
	out = append(out, cells.PadLines(body, w, bodyH)...)
	out = append(out, m.statusLines(w)...)
	return append(out, m.helpLine(w))
}

// mainBody is the two lists and the recommended action (mainPanes lays them out), or the preset picker.
func (m *Model) mainBody(w, h int) []string {
	if m.pre.picking {
		return m.pickerBody(w, h)
	}
	if didNotStart(m.cur) {
		return m.failureBody(w, h)
	}
	panes, recH := m.mainPanes()
	var out []string
	if w >= wideFrom {
		lw := w * 45 / 100
		out = hjoin(m.listBox(paneBreaks, lw, panes[0]), m.listBox(paneRecompiles, w-lw, panes[1]))
	} else {
		out = append(m.listBox(paneBreaks, w, panes[0]), m.listBox(paneRecompiles, w, panes[1])...)
	}
	if recH > 0 {
		out = append(out, m.recommendBox(w, recH)...)
	}
	return out
}

// The most lines a message in the status area takes (a flash, a question, the run's error): it wraps onto a
// second line, which the body gives up, rather than being cut.
const maxStatusLines = 2

// message is the status area's sentence when it shows one: a question, a flash or the run's error (on the main
// screen), with its style; ok is false when it shows something else (the input line, the stall banner, the ranks
// strip, the log's status).
func (m *Model) message() (text string, st lipgloss.Style, ok bool) {
	switch {
	case m.prompt != nil:
		return m.prompt.text, m.th.warn, true
	case m.lad != nil:
		return m.lad.line, m.th.warn, true
	case m.typing || m.stallBanner():
		return "", st, false
	case m.flash != "":
		return m.flash, st, true
	case m.cur != nil && m.cur.err != "" && m.screen == screenMain:
		return "✗ " + m.cur.err, m.th.bad, true
	}
	return "", st, false
}

// messageLines are the message's lines of w cells: one where it fits, else wrapped (continuation lines indented)
// onto at most maxStatusLines, the last cut at a word with "…" only where even those do not hold it.
func messageLines(text string, st lipgloss.Style, w int) []string {
	if cells.Width(text)+1 <= w {
		return []string{cells.Fit(st.Render(" "+text), w)}
	}
	return wrapHanging(text, st, w, maxStatusLines, " "+cells.Ellipsis)
}

// wrapHanging is text wrapped onto lines of w cells, each styled st: the first after a space, the others
// indented three cells. Past n lines the last one kept is cut at a word and ends in more.
func wrapHanging(text string, st lipgloss.Style, w, n int, more string) []string {
	lines := cells.Wrap(text, max(w-3, 1))
	if len(lines) > n {
		lines = lines[:n]
		last := &lines[n-1]
		*last = cells.WordPrefix(*last, max(w-3-cells.Width(more), 1)) + more
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		lead := " "
		if i > 0 {
			lead = "   "
		}
		out[i] = cells.Fit(st.Render(lead+l), w)
	}
	return out
}

// statusLines are the status area: the message when there is one (wrapped), else the status line.
func (m *Model) statusLines(w int) []string {
	if text, st, ok := m.message(); ok {
		return messageLines(text, st, w)
	}
	return []string{m.statusLine(w)}
}

// statusHeight is how many lines the status area takes (Update's layout and View agree on it).
func (m *Model) statusHeight() int {
	if text, st, ok := m.message(); ok {
		return len(messageLines(text, st, m.w))
	}
	return 1
}

// statusLine is the status area without a message: the input line or the stall banner when there is one, else
// the ranks strip and the guided step on the main screen, or the screen's own status.
func (m *Model) statusLine(w int) string {
	switch {
	case m.typing:
		hint := "   enter keeps the filter · esc clears it"
		switch {
		case m.noteFor != nil:
			hint = "   enter saves (empty: no note) · esc cancels"
		case m.metricEdit:
			hint = "   enter sets it · esc cancels"
		case m.screen == screenLog:
			hint = "   enter searches · esc cancels"
		}
		return cells.Fit(" "+m.input.viewIn(m.th, w-2)+m.th.dim.Render(hint), w)
	case m.stallBanner():
		text, forms := " ⚠ "+m.stallText(), m.keys.keysTexts(scopeStall)
		keys := forms[len(forms)-1]
		for _, f := range forms { // what compiles matters more than the keys' words
			if cells.Width(text)+cells.Width(f)+4 <= w {
				keys = f
				break
			}
		}
		return cells.Spread(m.th.warn.Render(text), m.th.warn.Render(keys)+" ", w)
	}
	switch m.screen {
	case screenMain:
		return m.ranksStrip(w)
	case screenLog:
		return m.logStatus(w)
	}
	return cells.Fit("", w)
}

// helpLine is the footer, from the key table: as many of the state's bindings as fit, then the ones always
// shown (help, quit or back).
func (m *Model) helpLine(w int) string {
	head, tail := m.footer()
	const sep = " · "
	item := func(b key.Binding) string {
		return m.th.key.Render(b.Help().Key) + " " + m.th.dim.Render(b.Help().Desc)
	}
	end := ""
	for _, b := range tail {
		if end != "" {
			end += sep
		}
		end += item(b)
	}
	room := w - 2 - cells.Width(end) - len(sep)
	var start strings.Builder
	for i, b := range head {
		it := item(b)
		if i > 0 {
			it = sep + it
		}
		if cells.Width(start.String())+cells.Width(it) > room-2 {
			start.WriteString(" …")
			break
		}
		start.WriteString(it)
	}
	line := start.String()
	if line != "" && end != "" {
		line += sep
	}
	return cells.Fit(" "+line+end, w)
}

// stallText is "rank 3 compiling `forward` for 2m10s · rank 0,1,2 not compiling (waiting) · no output for 42s"
// while the probe says a rank compiles, "no output for 42s · nothing compiling: may be hung" when it says none
// does ("…: hung" once the analysis says where the ranks wait: hungText), else "no output for 42s".
func (m *Model) stallText() string {
	s := m.noOutputText(m.cur)
	if c := m.compileText(); c != "" {
		return c + " · " + s
	}
	for _, st := range m.cur.probe.compiling {
		if st.Alive {
			if m.hungText() != "" { // the analysis knows where the ranks wait: the "Hung:" line says it
				return s + " · nothing compiling: hung"
			}
			return s + " · nothing compiling: may be hung"
		}
	}
	return s
}

// The main screen keeps at least this many lines of body (the lists with three rows each and the recommended
// box) when the lines above it wrap.
const minMainBody = 14

// mainTop are the main screen's lines under the header: the preset bar (run, demo) or the open line with the
// verdict (open), then the report's "First failure:" and "Caught …" lines. These sentences wrap rather than
// being cut: each has one line, and the lines the body can spare above minMainBody go to the verdict first, then
// to the first failure, then to the caught lines. One that still does not fit (a small terminal) ends in
// "… i: in full": the info screen shows it whole.
func (m *Model) mainTop(w int) []string {
	var texts []string
	var styles []lipgloss.Style
	bar := ""
	if m.opt.mode == modeOpen {
		if v := m.verdictText(); v != "" {
			texts, styles = append(texts, v), append(styles, m.th.dim)
		} else {
			bar = cells.Fit(m.th.dim.Render(" opened logs: no relaunch (torchtriage run -- CMD relaunches with presets)"), w)
		}
	} else {
		bar = m.presetLine(w)
		if v := m.hungText(); v != "" {
			texts, styles = append(texts, v), append(styles, m.th.bad)
		}
	}
	if f := m.firstFailure(); f != "" {
		texts, styles = append(texts, "First failure: "+clean(f)), append(styles, m.th.bad)
	}
	for _, l := range m.caughtLines() {
		texts, styles = append(texts, clean(l)), append(styles, m.th.warn)
	}
	n := len(texts)
	if bar != "" {
		n++
	}
	spare := max(m.h-1-n-m.statusHeight()-1-minMainBody, 0) // the header, these lines, the status area, the footer
	var out []string
	if bar != "" {
		out = append(out, bar)
	}
	for i, t := range texts {
		lines := wrapHanging(t, styles[i], w, 1+spare, " … i: in full")
		spare -= len(lines) - 1
		out = append(out, lines...)
	}
	return out
}

// verdictText is the open line's "2 inputs · verdict: not steady: …" of the run on show, "" before its analysis.
func (m *Model) verdictText() string {
	r := m.cur
	if r == nil || r.snap == nil || r.snap.analysis == nil {
		return ""
	}
	return fmt.Sprintf("%s · verdict: %s", plural(len(r.log.Inputs), "input"), clean(r.snap.analysis.Verdict.Summary))
}

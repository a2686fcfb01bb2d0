package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/session"
)

// detailState: the evidence record under the cursor and the scroll offset.
type detailState struct {
	ev     int
	scroll scrollState
	evLine int // line of the selected evidence in the last draw
}

// detailKey: ↑/↓ pick an evidence record, l or enter jump to it in the log, pgup/pgdn scroll.
func (m *Model) detailKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	r := m.selected()
	if r == nil {
		return nil, false
	}
	k := m.keys
	switch {
	case key.Matches(msg, k.Up):
		m.det.ev = max(m.det.ev-1, 0)
		m.det.scroll.off = min(m.det.scroll.off, m.det.evLine-1)
	case key.Matches(msg, k.Down):
		m.det.ev = min(m.det.ev+1, max(len(r.evidence)-1, 0))
	case key.Matches(msg, k.Jump), key.Matches(msg, k.Enter):
		if len(r.evidence) == 0 {
			m.flash = "this finding has no evidence record to jump to"
			return nil, true
		}
		e := r.evidence[min(m.det.ev, len(r.evidence)-1)]
		at := m.cur.log.Find(e.Input, e.InputLine)
		if at < 0 {
			m.flash = fmt.Sprintf("%s:%d is not in the log view", e.Input, e.InputLine)
			return nil, true
		}
		m.openLog(at)
	default:
		return nil, m.scrollKey(msg, &m.det.scroll)
	}
	return nil, true
}

// detailBody: the finding, its evidence (rank, compile id, where in the log), the full primary playbook, the
// related ones and the raw log lines of the selected record.
func (m *Model) detailBody(w, h int) []string {
	th := m.th
	r := m.selected()
	if r == nil {
		return th.box("Detail", []string{" nothing selected"}, w, h, true)
	}
	iw := w - 4
	var lines []string
	add := func(s string) { lines = append(lines, " "+s) }
	addWrapped := func(s string) {
		for _, l := range wrapText(s, iw) {
			add(l)
		}
	}
	add(th.title.Render(kindWord(r.kind)+": "+r.what) + "  " + r.where)
	if r.title != "" {
		addWrapped(r.title)
	}
	if r.file != "" {
		add(th.dim.Render(r.file + ":" + strconv.Itoa(r.line)))
	}
	var marks []string
	if r.expected {
		marks = append(marks, th.expected.Render("expected by design"))
	}
	if r.limit {
		marks = append(marks, th.bad.Render("recompile limit hit"))
	}
	if len(r.detail) == 0 { // findings without a detail text: say the basics
		marks = append([]string{plural(r.count, "record"), "ranks " + orDash(joinInts(r.ranks))}, marks...)
	}
	if len(marks) > 0 {
		addWrapped(strings.Join(marks, " · "))
	}
	for _, d := range r.detail {
		addWrapped(d)
	}
	lines = append(lines, "")
	add(th.title.Render(fmt.Sprintf("Evidence (%d shown)", len(r.evidence))) + th.dim.Render("  ↑/↓ pick · l jump to the log"))
	sel := min(m.det.ev, max(len(r.evidence)-1, 0))
	for i, e := range r.evidence {
		where := fmt.Sprintf("%s:%d", strings.TrimPrefix(e.Input, session.LiveInput(m.cur.id)+":"), e.InputLine)
		if at := m.cur.log.Find(e.Input, e.InputLine); at >= 0 {
			where = fmt.Sprintf("log line %d (%s)", at+1, where)
		}
		text := fmt.Sprintf("rank %-3s compile %-8s %s", rankText(e.Rank), orDash(e.CompileID), where)
		if i == sel {
			m.det.evLine = len(lines)
			add(th.sel.Render(fit("▶ "+text, iw)))
		} else {
			add("  " + text)
		}
	}
	if len(r.evidence) > 0 {
		lines = append(lines, "")
		add(th.title.Render("Log lines of the selected record"))
		e := r.evidence[sel]
		if at := m.cur.log.Find(e.Input, e.InputLine); at >= 0 {
			for i := at; i < min(at+12, len(m.cur.log.Lines)); i++ {
				add(th.dim.Render(fmt.Sprintf("%6d ", i+1)) + m.cur.log.Lines[i].Text)
			}
		} else {
			add(th.dim.Render("not in this session's log"))
		}
	}
	if r.pb != nil {
		lines = append(lines, "")
		for _, l := range strings.Split(strings.TrimRight(m.renderPlaybook(r.pb, iw), "\n"), "\n") {
			add(l)
		}
	}
	if len(r.related) > 0 {
		lines = append(lines, "")
		add(th.title.Render("Related playbooks") + th.dim.Render("  (torchtriage explain ID)"))
		for _, p := range r.related {
			add(fmt.Sprintf("  %-28s %s", p.ID, p.Title))
		}
	}
	if m.det.evLine-m.det.scroll.off >= h-3 {
		m.det.scroll.off = m.det.evLine - h/2
	}
	title := "Detail · " + r.what
	if r.where != "" {
		title += " · " + r.where
	}
	return th.box(title, m.det.scroll.window(lines, h-2), w, h, true)
}

// renderPlaybook renders a playbook to a width once (glamour is slow).
func (m *Model) renderPlaybook(p *playbooks.Playbook, width int) string {
	key := "full|" + p.ID + "|" + strconv.Itoa(width)
	if s, ok := m.pbText[key]; ok {
		return strings.Join(s, "\n")
	}
	out := playbooks.Render(p, width, m.opt.color)
	m.pbText[key] = strings.Split(out, "\n")
	return out
}

func rankText(r int) string {
	if r < 0 {
		return "-"
	}
	return strconv.Itoa(r)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/session"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// detailText: the finding, its evidence (rank, compile id, where in the log), the full primary playbook, the
// related ones and the raw log lines of the selected record; mark is the line of the selected record.
func (m *Model) detailText(w int) (title string, lines []string, mark int) {
	th := m.th
	r := m.selected()
	if r == nil {
		return "Detail", []string{" nothing selected"}, 0
	}
	iw := w - 4
	add := func(s string) { lines = append(lines, " "+s) }
	addWrapped := func(s string) {
		for _, l := range cells.Wrap(s, iw) {
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
	switch {
	case r.expected && r.assumed:
		marks = append(marks, th.expected.Render("expected if automatic dynamic is on (assumed, not shown)"))
	case r.expected:
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
	for i, d := range r.detail {
		if i == 0 && d == r.title { // a detail that opens with the title: said once
			continue
		}
		addWrapped(d)
	}
	lines = append(lines, "")
	add(th.title.Render(fmt.Sprintf("Evidence (%d shown)", len(r.evidence))) + th.dim.Render("  ↑/↓ pick · enter or l: in the log"))
	sel := min(m.det.ev, max(len(r.evidence)-1, 0))
	for i, e := range r.evidence {
		where := fmt.Sprintf("%s:%d", strings.TrimPrefix(e.Input, session.LiveInput(m.cur.id)+":"), e.InputLine)
		probe := e.InputLine <= 0 && strings.HasSuffix(e.Input, ".json") // a probe's JSON file, no line of it
		if probe {
			where = "probe file " + strings.TrimPrefix(e.Input, session.LiveInput(m.cur.id)+":")
		}
		if at := m.cur.log.Find(e.Input, e.InputLine); at >= 0 {
			where = fmt.Sprintf("log line %d (%s)", at+1, where)
		}
		who := "rank " + rankText(e.Rank)
		if e.Rank < 0 {
			who = "no rank"
		}
		text := fmt.Sprintf("%-8s compile %-8s %s", who, orDash(e.CompileID), where)
		if i == sel {
			mark = len(lines)
			add(th.sel.Render(cells.Fit("▶ "+text, iw)))
		} else {
			add("  " + text)
		}
	}
	if len(r.evidence) > 0 {
		lines = append(lines, "")
		add(th.title.Render("Log lines of the selected record"))
		e := r.evidence[sel]
		if at := m.cur.log.Find(e.Input, e.InputLine); at >= 0 {
			for k, l := range m.cur.log.Lines(at, at+12) { // twelve lines read back from the run's files
				add(th.dim.Render(fmt.Sprintf("%6d ", at+k+1)) + l.Text)
			}
		} else if e.InputLine <= 0 && strings.HasSuffix(e.Input, ".json") {
			add(th.dim.Render("a probe file, not a log line: torchtriage's probe wrote it inside the process"))
		} else {
			add(th.dim.Render("not in this session's log"))
		}
	}
	if r.pb != nil {
		lines = append(lines, "")
		for _, l := range m.playbookLines(r.pb, iw) {
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
	title = "Detail · " + r.what
	if r.where != "" {
		title += " · " + r.where
	}
	return title, lines, mark
}

func fullKey(p *playbooks.Playbook, width int) string {
	return "full|" + p.ID + "|" + p.Severity + "|" + p.Category + "|" + strconv.Itoa(width)
}

// playbookLines is a playbook rendered to a width, as Update cached it (styled when colours are on); a model
// changed without Update gets the plain rendering, which is cheap.
func (m *Model) playbookLines(p *playbooks.Playbook, width int) []string {
	if ls, ok := m.pbText[fullKey(p, width)]; ok {
		return ls
	}
	return renderPlaybook(p, width, false)
}

func renderPlaybook(p *playbooks.Playbook, width int, color bool) []string {
	return strings.Split(strings.TrimRight(playbooks.Render(p, width, color), "\n"), "\n")
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

package tui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// recommendBox shows the primary playbook of the selected finding, cut to fit; enter opens all of it.
func (m *Model) recommendBox(w, h int) []string {
	r := m.selected()
	if title, body, ok := m.plainRecommend(w); ok {
		if len(body) > h-2 && h > 2 { // more than even the lists could spare (mainPanes): say it goes on
			body = body[:h-2]
			body[h-3] = " " + m.th.dim.Render(cells.WordPrefix(ansi.Strip(body[h-3])[1:], max(w-5, 1))+" "+cells.Ellipsis)
		}
		return m.th.box(title, body, w, h, false)
	}
	pb := r.pb
	cat := r.category
	if cat == "" {
		cat = pb.Category
	}
	if r.expected {
		cat = "by design"
	}
	title := recommendTitle(pb.Title, r.gbid, cat, w-6)
	lines := m.recommendLines(r, w-3)
	if len(lines) > h-2 {
		const more = " … enter: full playbook"
		lines = lines[:h-2]
		last := cells.WordPrefix(lines[h-3], w-3-cells.Width(more))
		if t := listMark.ReplaceAllString(last, ""); cells.Width(t) > cells.Width(last)/2 { // not "3." alone before the "…"
			last = t
		}
		lines[h-3] = last + m.th.dim.Render(more)
	}
	for i := range lines {
		lines[i] = " " + lines[i]
	}
	return m.th.box(title, lines, w, h, false)
}

// plainRecommend is the bottom box's title and lines (wrapped to w) where it shows no playbook: the selected
// finding's title, the live run's state or the verdict while the lists are empty; ok is false where a playbook
// shows.
func (m *Model) plainRecommend(w int) (title string, body []string, ok bool) {
	r := m.selected()
	if r != nil && r.pb != nil {
		return "", nil, false
	}
	msg := "Select a finding to see what to do about it."
	if r != nil {
		msg = r.title
	}
	lines, title := []string{msg}, "Recommended"
	if c := m.cur; c != nil && m.lists[0].len()+m.lists[1].len() == 0 {
		switch {
		case !c.done && m.opt.mode != modeOpen:
			lines, title = m.aliveLines(c), "Live"
		case c.snap != nil && c.snap.analysis != nil:
			lines, title = m.verdictLines(c), "Verdict"
		}
	}
	for _, l := range lines {
		for _, wl := range cells.Wrap(l, w-3) {
			body = append(body, " "+m.th.dim.Render(wl))
		}
	}
	return title, body, true
}

// recommendTitle is "Recommended · TITLE (GBID) · CATEGORY" in at most w cells: the playbook title's
// parenthetical asides go first, then its last words; the category stays.
func recommendTitle(title, gbid, cat string, w int) string {
	id := ""
	if gbid != "" {
		id = " (" + gbid + ")"
	}
	const head = "Recommended · "
	tail := " · " + cat
	for _, t := range []string{title, aside.ReplaceAllString(title, "")} {
		if s := head + t + id + tail; cells.Width(s) <= w {
			return s
		}
	}
	return head + cells.CutWords(aside.ReplaceAllString(title, "")+id, w-cells.Width(head+tail)) + tail
}

// listMark is a numbered step's mark left last on a line: " 3."
var listMark = regexp.MustCompile(` +\d+\.$`)

// aside is a parenthetical in a playbook title: "(a CPU tensor moved to the GPU inside the graph)".
var aside = regexp.MustCompile(` \([^()]*\)`)

func recommendKey(r *row, iw int) string { return r.pb.ID + "|" + strconv.Itoa(iw) + "|" + r.why }

// recommendLines is the first Do action, Why, the other actions and Verify, wrapped to iw cells: a copy of what Update cached, else wrapped here.
func (m *Model) recommendLines(r *row, iw int) []string {
	if ls, ok := m.pbText[recommendKey(r, iw)]; ok {
		return append([]string(nil), ls...)
	}
	return m.wrapRecommend(r, iw)
}

func (m *Model) wrapRecommend(r *row, iw int) []string {
	th := m.th
	var lines []string
	add := func(label, text string) {
		if text == "" {
			return
		}
		for i, l := range cells.Wrap(label+" "+text, iw) {
			if i == 0 {
				l = th.title.Render(label) + strings.TrimPrefix(l, label)
			}
			lines = append(lines, l)
		}
	}
	do := r.pb.Do()
	if r.do != "" && len(do) > 0 { // the finding's own words for the playbook's generic first step
		do = append([]string{r.do}, do[1:]...)
	}
	if len(do) > 0 { // what to do first, then why, then the rest
		add("Do:", "1. "+do[0])
	}
	why := r.pb.Why()
	if r.why != "" { // the finding's words where the playbook's would be false for it (a fullgraph error: nothing resumes)
		why = r.why
	}
	add("Why:", firstSentences(why, 2))
	var more []string
	for i, d := range do[min(1, len(do)):] {
		more = append(more, fmt.Sprintf("%d. %s", i+2, d))
	}
	add("Then:", strings.Join(more, "  "))
	add("Verify:", oneLine(r.pb.Verify()))
	return lines
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// firstSentences keeps the first n sentences of a paragraph.
func firstSentences(s string, n int) string {
	s = oneLine(s)
	end := 0
	for i := 0; i < n; i++ {
		j := strings.Index(s[end:], ". ")
		if j < 0 {
			return s
		}
		end += j + 2
	}
	return strings.TrimSpace(s[:end])
}

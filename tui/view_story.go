package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/story"
)

const storyIndent = "    " // detail lines hang under the run number

// runLines is one run of the runs view (w cells): its heading (mark, number, preset, state, counts, metric, note),
// the note on its own line when the heading has no room for it, the delta from its base run (one or two lines),
// what changed since the run before, and why it has no findings.
func (m *Model) runLines(r runRow, sel bool, w int) []string {
	th := m.th
	mark := []string{" ", " "}
	if slices.Contains(m.runsv.marked, r.id) {
		mark[0] = "◆"
	}
	if r.view != nil && r.view == m.cur {
		mark[1] = "•"
	}
	format := "%s#%-3d %-12s %-22s"
	if w+2 < wideFrom { // a narrow terminal: the counts matter more than aligned columns
		format = "%s#%-3d %-10s %-16s"
	}
	counts := rowCountItems(r)
	base := fmt.Sprintf(format, strings.Join(mark, ""), r.id, rowPreset(r), rowState(r))
	head := base + " " + strings.Join(counts, " · ")
	// the counts go on lines of their own under opened inputs (after how the run ended) and under a heading with
	// no room for them: an item of the counts is never cut, what is missing must be read
	var under []piece
	opened := r.view != nil && r.view.label != ""
	if opened {
		head = strings.Join(mark, "") + " " + r.view.label
		if e := rowEnded(r); e != "" {
			under = append(under, piece{text: e})
		}
	}
	after := ""
	if r.view != nil && r.view.meta.RelaunchedFrom != "" {
		after += "  (relaunch of " + r.view.meta.RelaunchedFrom + ")"
	}
	if v := rowMetric(r); v != nil {
		after += " · metric " + strconv.FormatFloat(*v, 'g', 6, 64)
	}
	own := opened || width(head+after) > w-1
	if own && !opened {
		head = strings.TrimRight(base, " ")
	}
	head += after
	if own {
		for _, c := range counts {
			under = append(under, piece{sep: " · ", text: c})
		}
	}
	note := ""
	if n := r.note(); n != "" {
		note = "“" + clean(n) + "”"
		if width(head)+2+width(note) < w {
			head, note = head+"  "+note, ""
		}
	}
	out := []string{" " + th.plain.Render(head)}
	if sel {
		out[0] = " " + th.sel.Render(fit(head, w-1))
	}
	if note != "" {
		out = append(out, storyIndent+cut(note, w-len(storyIndent)))
	}
	if len(under) > 0 {
		out = append(out, fillLines(under, w, 3)...)
	}
	if v := m.verdictLine(r, w-len(storyIndent)); v != "" { // the report's verdict, from the same analysis
		out = append(out, storyIndent+v)
	}
	st := r.st
	if st == nil {
		return out
	}
	if st.Delta != nil {
		out = append(out, fillLines(m.deltaPieces(st), w, 2)...)
	}
	if len(st.Changes) > 0 {
		out = append(out, storyIndent+cut(th.dim.Render(changesText(st.Changes)), w-len(storyIndent)))
	}
	if st.Error != "" {
		out = append(out, storyIndent+cut(th.bad.Render("✗ "+clean(st.Error)), w-len(storyIndent)))
	}
	return out
}

// piece is a part of a line that is not broken: it starts a line, or follows the one before after sep.
type piece struct{ sep, text string }

// fillLines lays pieces out on at most n lines of w cells, indented; what does not fit on the last line is cut
// to "…" (so is a piece wider than a line).
func fillLines(pieces []piece, w, n int) []string {
	room := w - len(storyIndent)
	var out []string
	line := ""
	for _, p := range pieces {
		add := p.text
		if line != "" {
			add = p.sep + p.text
		}
		if line == "" || width(line)+width(add) <= room {
			line += add
			continue
		}
		if len(out) == n-1 {
			line += add
			break
		}
		out = append(out, line)
		line = p.text
	}
	out = append(out, line)
	for i := range out {
		out[i] = storyIndent + cut(out[i], room)
	}
	return out
}

// deltaPieces: "vs #1:" "fixed: print() … [gb-print]" "ranks agree again [dist-rank-divergent-graphs]"
// "metric 18.1→24.5", each item a piece of its own.
func (m *Model) deltaPieces(st *story.Run) []piece {
	th, d := m.th, st.Delta
	head := fmt.Sprintf("vs #%d:", d.Base)
	if d.Partial {
		head = fmt.Sprintf("vs #%d (this run did not complete):", d.Base)
	}
	var out []piece
	add := func(text string) { // the first part is glued to the head, the others follow after " · "
		if len(out) == 0 {
			out = append(out, piece{text: th.dim.Render(head) + " " + text})
			return
		}
		out = append(out, piece{sep: " · ", text: text})
	}
	group := func(label string, style lipgloss.Style, items []triage.DiffItem, counts bool) {
		for i, it := range items {
			x := clean(it.Title)
			if counts {
				x += fmt.Sprintf(" ×%d→×%d", it.Before, it.After)
			}
			x += playbookTag(th, it.Playbook)
			if i == 0 {
				add(style.Render(label+":") + " " + x)
			} else {
				out = append(out, piece{sep: ", ", text: x})
			}
		}
	}
	group("fixed", th.good, d.Fixed, false)
	group("new", th.bad, d.New, false)
	group("count", th.warn, d.Changed, true)
	switch d.Agreement {
	case story.AgreementRegained:
		add(th.good.Render("ranks agree again") + playbookTag(th, d.AgreementPlaybook))
	case story.AgreementLost:
		add(th.bad.Render("ranks disagree now") + playbookTag(th, d.AgreementPlaybook))
	}
	if d.MetricBefore != nil && st.Metric != nil && *d.MetricBefore != *st.Metric {
		add(fmt.Sprintf("metric %s→%s", strconv.FormatFloat(*d.MetricBefore, 'g', 6, 64),
			strconv.FormatFloat(*st.Metric, 'g', 6, 64)))
	}
	switch {
	case len(out) == 0 && d.Partial: // what the run never reached is not "no change" (as the bringup log says)
		add("nothing new or more in what it reached")
	case len(out) == 0:
		add("no change")
	}
	var skipped []string
	for _, n := range d.NotCompared {
		if what, _, ok := strings.Cut(n, ":"); ok && !slices.Contains(skipped, what) {
			skipped = append(skipped, what)
		}
	}
	if len(skipped) > 0 {
		add(th.dim.Render(strings.Join(skipped, ", ") + " not compared"))
	}
	return out
}

func playbookTag(th theme, id string) string {
	if id == "" {
		return ""
	}
	return " " + th.dim.Render("["+id+"]")
}

// changesText: "changed: preset breaks→deep · env +NCCL_DEBUG=INFO".
func changesText(cs []story.Change) string {
	var parts []string
	for _, c := range cs {
		switch {
		case c.What == "preset":
			a, b := presetWord(c.Before), presetWord(c.After)
			if a == b {
				a, b = c.Before, c.After
			}
			parts = append(parts, "preset "+a+"→"+b)
		case c.What == "env" && c.Before == "":
			parts = append(parts, "env +"+c.Key+"="+c.After)
		case c.What == "env" && c.After == "":
			parts = append(parts, "env -"+c.Key)
		case c.What == "env":
			parts = append(parts, "env "+c.Key+" "+c.Before+"→"+c.After)
		default:
			parts = append(parts, c.What+" "+c.Before+" → "+c.After)
		}
	}
	return clean("changed: " + strings.Join(parts, " · "))
}

// presetWord is the preset name of "breaks (graph_breaks,recompiles)".
func presetWord(s string) string {
	name, _, _ := strings.Cut(s, " (")
	return name
}

func rowPreset(r runRow) string {
	if r.view != nil && r.view.hasMeta {
		return r.view.meta.Preset
	}
	if r.st != nil {
		return r.st.Preset
	}
	return ""
}

// rowState: this session's runs as the runner reports them; earlier ones from their meta.json (a run the tool
// stopped as its verdict words it).
func rowState(r runRow) string {
	if r.view != nil || r.st == nil {
		return runState(r.view)
	}
	st := r.st
	d := clock(time.Duration(st.DurationS * float64(time.Second)))
	switch {
	case st.State == "running" || st.State == "stalled":
		return st.State
	case st.StoppedBy != "": // the tool's own stop is no failure
		return stoppedText(st.StoppedBy) + " · " + d
	case st.Signal != "":
		return fmt.Sprintf("%s (%s) %s", st.State, st.Signal, d)
	case st.ExitCode != nil:
		return fmt.Sprintf("%s %d · %s", st.State, *st.ExitCode, d)
	}
	return st.Exit
}

func rowMetric(r runRow) *float64 {
	if r.view != nil && r.view.meta.Metric != nil {
		return r.view.meta.Metric
	}
	if r.st != nil {
		return r.st.Metric
	}
	return nil
}

package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/story"
	"github.com/torchtriage/torchtriage/tui/cells"
)

const storyIndent = "    " // detail lines hang under the run number

// runLines is one run of the runs view (w cells): its heading (mark, number, preset, state, counts, metric, note),
// the note on its own line when the heading has no room for it, how an opened input's run ended and the counts on
// lines of their own when the heading has no room for them, the report's verdict, the delta from its base run,
// what changed since the run before, and why it has no findings. Nothing is cut: what does not fit a line goes on
// the next, indented under the row (storyIndent; a sentence's own continuation two cells more).
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
	if e := rowExperiment(r); e != nil { // a ladder's tier: its runs are one experiment
		after += "  (" + e.ID + " · " + e.Step + ")"
	}
	if v := rowMetric(r); v != nil {
		after += " · metric " + strconv.FormatFloat(*v, 'g', 6, 64)
	}
	own := opened || cells.Width(head+after) > w-1
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
		if cells.Width(head)+2+cells.Width(note) < w {
			head, note = head+"  "+note, ""
		}
	}
	var out []string
	for i, l := range headLines(head, w) { // a heading wider than the line (a long state or path) goes on
		lead, room := " ", w-1
		if i > 0 {
			lead, room = storyIndent, w-len(storyIndent)
		}
		if sel {
			l = th.sel.Render(cells.Fit(l, room))
		} else {
			l = th.plain.Render(l)
		}
		out = append(out, lead+l)
	}
	if note != "" {
		out = append(out, hanging(note, w, th.plain)...)
	}
	if len(under) > 0 {
		out = append(out, fillLines(under, w)...)
	}
	out = append(out, m.rowVerdict(r, w)...) // the report's verdict, from the same analysis
	st := r.st
	if st == nil {
		return out
	}
	if st.Delta != nil {
		out = append(out, fillLines(m.deltaPieces(st), w)...)
	}
	if len(st.Changes) > 0 {
		out = append(out, hanging(changesText(st.Changes), w, th.dim)...)
	}
	if st.Error != "" {
		out = append(out, hanging("✗ "+clean(st.Error), w, th.bad)...)
	}
	return out
}

// headLines is a row's heading in lines: one where it fits w-1 cells (after the one-cell margin), else wrapped
// to the room of the lines under it (storyIndent).
func headLines(head string, w int) []string {
	if cells.Width(head) <= w-1 {
		return []string{head}
	}
	return cells.Wrap(head, max(w-len(storyIndent), 8))
}

// hanging is a sentence of a row in lines of w cells, each styled st: on one line indented storyIndent where it
// fits, else wrapped, its continuation lines indented two cells more. Nothing is cut.
func hanging(text string, w int, st lipgloss.Style) []string {
	room := max(w-len(storyIndent), 8)
	if cells.Width(text) <= room {
		return []string{storyIndent + st.Render(text)}
	}
	var out []string
	for i, l := range cells.Wrap(text, max(room-2, 6)) {
		lead := storyIndent
		if i > 0 {
			lead += "  "
		}
		out = append(out, lead+st.Render(l))
	}
	return out
}

// piece is a part of a line that is not broken where it fits a line: it starts a line, or follows the one before
// after sep.
type piece struct{ sep, text string }

// fillLines lays pieces out on lines of w cells, indented (storyIndent): a piece follows the one before where it
// fits, else starts a line; a piece wider than a line is wrapped (its styles kept on every line), its continuation
// lines indented two cells more. Nothing is cut.
func fillLines(pieces []piece, w int) []string {
	room := max(w-len(storyIndent), 8)
	var out []string
	line := ""
	for _, p := range pieces {
		add := p.text
		if line != "" {
			add = p.sep + p.text
		}
		if cells.Width(line)+cells.Width(add) <= room {
			line += add
			continue
		}
		if line != "" {
			out = append(out, storyIndent+line)
		}
		line = p.text
		if cells.Width(line) <= room {
			continue
		}
		for i, l := range strings.Split(lipgloss.Wrap(line, max(room-2, 6), " /-"), "\n") {
			lead := storyIndent
			if i > 0 {
				lead += "  "
			}
			out = append(out, lead+l)
		}
		line = ""
	}
	if line != "" {
		out = append(out, storyIndent+line)
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
	group := func(label string, style lipgloss.Style, items []compare.DiffItem, counts bool) {
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
	case len(out) == 0 && len(d.NotCompared) > 0: // "no change" only of what it compared (as the bringup log)
	case len(out) == 0 && d.Partial: // what the run never reached is not "no change" (as the bringup log says)
		add("nothing new or more in what it reached")
	case len(out) == 0 && len(d.ByDesign) > 0: // by-design items differ: no fix, no regression (Delta.Quiet)
		add("no change to fix")
	case len(out) == 0:
		add("no change")
	}
	for i, it := range d.ByDesign { // "by design, gone: DDP wrapper … via contextlib.py:109"
		x := th.dim.Render(it.Change+":") + " " + clean(it.Title) + playbookTag(th, it.Playbook)
		if it.Change == compare.ChangeCount {
			x += fmt.Sprintf(" ×%d→×%d", it.Before, it.After)
		}
		if i == 0 {
			word := "by design"
			if it.Kind == findings.KindRecompile {
				word = "expected"
			}
			add(th.dim.Render(word+",") + " " + x)
		} else {
			out = append(out, piece{sep: ", ", text: x})
		}
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
		case c.What == "code": // "repro.py changed (+2 −1)"
			parts = append(parts, c.Text)
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

// rowExperiment is the experiment a run is a step of (a ladder's tier), nil for none.
func rowExperiment(r runRow) *runs.Experiment {
	if r.view != nil && r.view.meta.Experiment != nil {
		return r.view.meta.Experiment
	}
	if r.st != nil {
		return r.st.Experiment
	}
	return nil
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

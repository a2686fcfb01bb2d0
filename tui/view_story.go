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
	format := "%s#%-3d %-12s %-22s %s"
	if w+2 < wideFrom { // a narrow terminal: the counts matter more than aligned columns
		format = "%s#%-3d %-10s %-16s %s"
	}
	head := fmt.Sprintf(format, strings.Join(mark, ""), r.id, rowPreset(r), rowState(r), rowCounts(r))
	if r.view != nil && r.view.label != "" {
		head = fmt.Sprintf("%s %s  %s", strings.Join(mark, ""), r.view.label, rowCounts(r))
	}
	if r.view != nil && r.view.meta.RelaunchedFrom != "" {
		head += "  (relaunch of " + r.view.meta.RelaunchedFrom + ")"
	}
	if v := rowMetric(r); v != nil {
		head += " · metric " + strconv.FormatFloat(*v, 'g', 6, 64)
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
	if len(out) == 0 {
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

// rowCounts: the story's counts of a finished run (they know what its TORCH_LOGS did not log), else the live ones.
func rowCounts(r runRow) string {
	if st := r.st; st != nil && st.Counts != nil && !r.live() {
		if !st.Logged.Torch {
			return "no torch output: nothing counted" // the story's words: its zeros mean nothing
		}
		if a := st.Analysis(); a != nil && a.Evidence.NothingCompiled() != "" {
			return compileOffCounts + " (" + a.Evidence.NothingCompiledShort() + ")"
		}
		c := st.Counts
		breaks, recompiles := triage.Tally(c.GraphBreaks, triage.RunLogging(st.Logged.GraphBreaks), "break"), triage.Tally(c.Recompiles, triage.RunLogging(st.Logged.Recompiles), "recompile")
		parts := []string{breaks, recompiles, plural(c.LimitHits, "limit hit")}
		if c.CudagraphSkips > 0 {
			parts = append(parts, plural(c.CudagraphSkips, "skip"))
		}
		if c.CompileErrors > 0 {
			parts = append(parts, plural(c.CompileErrors, "error"))
		}
		if c.Ranks > 1 {
			parts = append(parts, plural(c.Ranks, "rank"))
		}
		return strings.Join(parts, " · ")
	}
	if r.view == nil || r.view.snap == nil {
		if r.st != nil && r.view == nil {
			return "no logs to analyse"
		}
		return "no findings yet"
	}
	c := r.view.snap.report.Counts
	breaks, recompiles := plural(c.GraphBreaks, "break"), plural(c.Recompiles, "recompile")
	if a := r.view.snap.analysis; a != nil { // the counts lines' rules: a zero that could not be otherwise is no count
		ev := a.Evidence
		switch {
		case !ev.TorchSeen && r.live():
			return "no torch output yet"
		case !ev.TorchSeen:
			return a.NoTorchText()
		case ev.NothingCompiled() != "":
			return compileOffCounts + " (" + ev.NothingCompiledShort() + ")"
		}
		breaks = triage.Tally(c.GraphBreaks, ev.LoggingOf(ev.GraphBreaksLogged), "break")
		recompiles = triage.Tally(c.Recompiles, ev.LoggingOf(ev.RecompilesLogged), "recompile")
	}
	counts := fmt.Sprintf("%s · %s · %s", breaks, recompiles, plural(c.RecompileLimitHits, "limit hit"))
	if c.CompileErrors > 0 {
		counts += " · " + plural(c.CompileErrors, "error")
	}
	return counts
}

// compileOffCounts stands for the counts of a run that compiled nothing (torch.compile off, or no frame reached
// it): its zeros count nothing (the verdict says why).
const compileOffCounts = "nothing compiled"

func rowMetric(r runRow) *float64 {
	if r.view != nil && r.view.meta.Metric != nil {
		return r.view.meta.Metric
	}
	if r.st != nil {
		return r.st.Metric
	}
	return nil
}

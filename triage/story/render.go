package story

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/text"
)

// maxDeltaItems bounds each list of a delta in text and Markdown (JSON has them all).
const maxDeltaItems = 12

// WriteJSON writes the story as JSON (schema torchtriage.log/v1).
func WriteJSON(w io.Writer, s *Story) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(struct {
		Schema string `json:"schema"`
		*Story
	}{Schema, s})
}

// WriteText prints the session story for a terminal, fitted to o.
func WriteText(w io.Writer, s *Story, o text.Options) {
	t := text.NewWriter(w, o)
	head := []string{"torchtriage log", s.Store}
	if s.Script != "" {
		head = append(head, "script "+s.Script)
	}
	t.Items(2, " · ", append(head, sessionSpan(s))...)
	if e := envText(s.Env, true); e != "" {
		t.Line(2, "environment: "+e)
	}
	if tr := trendText(s); tr != "" {
		t.Line(2, trendLabel(s)+": "+tr)
	}
	for i := range s.Runs {
		r := &s.Runs[i]
		t.Blank()
		t.Items(2, " · ", append([]string{fmt.Sprintf("Run %d", r.ID)}, runHead(r)...)...)
		t.Line(4, "  $ "+r.Command)
		for _, l := range runBody(r, false) { // "·" parts (counts, playbooks) stay whole
			t.Items(4+len(l)-len(strings.TrimLeft(l, " ")), " · ", strings.Split("  "+l, " · ")...)
		}
	}
	if len(s.Runs) == 0 {
		t.Blank()
		if s.Script != "" {
			t.Line(0, "No run of "+s.Script+" in this store.")
		} else {
			t.Line(0, "No runs yet: torchtriage run (or check -- CMD) stores them here.")
		}
	}
}

// WriteMarkdown prints the session story as Markdown for a bringup doc or an upstream issue.
func WriteMarkdown(w io.Writer, s *Story) {
	fmt.Fprintf(w, "## torchtriage session log\n\n%s\n\n", render.MarkdownEscape(sessionSpan(s)))
	if e := envText(s.Env, false); e != "" {
		fmt.Fprintf(w, "**Environment:** %s\n\n", render.MarkdownEscape(e))
	}
	if t := trendText(s); t != "" {
		if n := trendScripts(s); n > 1 {
			fmt.Fprintf(w, "**Per run** (%d scripts, not one trend): %s\n\n", n, render.MarkdownEscape(t))
		} else {
			fmt.Fprintf(w, "**Trend:** %s\n\n", render.MarkdownEscape(t))
		}
	}
	if len(s.Runs) == 0 {
		fmt.Fprintln(w, "No runs yet.")
		return
	}
	fmt.Fprintln(w, "| run | started | preset | exit | duration | metric | breaks | recompiles | limit hits | skips | compile errors | runtime errors | ranks | note |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for i := range s.Runs {
		r := &s.Runs[i]
		cells := []string{strconv.Itoa(r.ID), timeText(r.Start), render.MarkdownEscape(runPresetText(r)), render.MarkdownEscape(r.Exit),
			durText(r.DurationS), metricText(r.Metric)}
		if r.CountWords != nil { // each count's words: countWords, as the text and the JSON
			for _, key := range []string{CountGraphBreaks, CountRecompiles, CountLimitHits, CountCudagraphSkips, CountCompileErrors, CountRuntimeErrors} {
				cells = append(cells, render.MarkdownEscape(r.countWord(key).Value))
			}
			ranks := strconv.Itoa(r.Counts.Ranks)
			if r.Counts.Ranks == 0 {
				ranks = r.processesText() // no rank: the report's words ("single process", "torchrun job, no rank prefix")
			}
			cells = append(cells, ranks)
		} else {
			cells = append(cells, "—", "—", "—", "—", "—", "—", "—")
		}
		fmt.Fprintf(w, "| %s | %s |\n", strings.Join(cells, " | "), render.MarkdownEscape(r.Note))
	}
	for i := range s.Runs {
		r := &s.Runs[i]
		fmt.Fprintf(w, "\n### Run %d · %s\n\n", r.ID, render.MarkdownEscape(strings.Join(runHead(r), " · ")))
		fmt.Fprintf(w, "```sh\n%s\n```\n\n", strings.ReplaceAll(r.Command, "```", "'''"))
		for _, l := range runBody(r, true) {
			fmt.Fprintln(w, l)
		}
	}
}

// runHead is a run's heading: time, preset, exit, duration, metric, note.
func runHead(r *Run) []string {
	h := []string{timeText(r.Start)}
	if r.Demo != "" {
		h = append(h, "demo · "+r.Demo)
	}
	if e := r.Experiment; e != nil { // the ladder's runs, one experiment: "ladder-20261207-211218 · inductor"
		h = append(h, e.ID+" · "+e.Step)
	}
	h = append(h, "preset "+runPresetText(r), r.Exit)
	if r.DurationS > 0 {
		h = append(h, durText(r.DurationS))
	}
	if r.Metric != nil {
		h = append(h, "metric "+metricText(r.Metric))
	}
	if r.Note != "" {
		h = append(h, "“"+r.Note+"”")
	}
	return h
}

// runBody is what a run changed, fixed and broke, its counts and verdict: plain lines, or Markdown.
func runBody(r *Run, md bool) []string {
	esc, code, bold := func(s string) string { return s }, func(s string) string { return s }, func(s string) string { return s }
	item := "  "
	if md {
		esc, bold = render.MarkdownEscape, func(s string) string { return "**" + s + "**" }
		code = func(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }
		item = "- "
	}
	var out []string
	if r.RelaunchedAs != "" {
		out = append(out, esc("relaunched as "+r.RelaunchedAs+": "+r.RelaunchNote))
	}
	if r.Error != "" {
		out = append(out, esc("error: "+r.Error))
	}
	if len(r.Changes) > 0 {
		var parts, codes []string
		for _, c := range r.Changes {
			if c.What == "code" { // one part: "code repro.py changed (+2 −1) · lib/helpers.py changed"
				codes = append(codes, code(c.Key)+esc(strings.TrimPrefix(c.Text, c.Key)))
				continue
			}
			parts = append(parts, changeText(c, esc, code))
		}
		if len(codes) > 0 {
			parts = append(parts, "code "+strings.Join(codes, " · "))
		}
		out = append(out, fmt.Sprintf("changed since the previous run: %s", strings.Join(parts, "; ")))
	}
	if d := r.Delta; d != nil {
		head := fmt.Sprintf("against run %d (%s):", d.Base, d.Basis)
		if d.Partial {
			head = fmt.Sprintf("against run %d (%s; this run did not complete, so a gone item may not have been reached):", d.Base, d.Basis)
		}
		lines, quiet := deltaLines(d, r, esc, code, bold)
		if quiet { // nothing but by-design items (listed after it) differ, if anything; one process compares no ranks
			lines = append([]string{esc(d.Quiet(r.Counts != nil && r.Counts.Ranks >= 2))}, lines...)
		}
		out = append(out, esc(head))
		for _, l := range lines {
			out = append(out, item+l)
		}
	}
	if r.Counts != nil { // each count's words: countWords, as the table and the JSON
		out = append(out, esc(r.countsLine()), esc("verdict: "+r.Verdict))
	}
	if md { // a blank line before each paragraph and before a list, none between list items
		var spaced []string
		for i, l := range out {
			if i > 0 && !(strings.HasPrefix(l, item) && strings.HasPrefix(out[i-1], item)) {
				spaced = append(spaced, "")
			}
			spaced = append(spaced, l)
		}
		out = spaced
	}
	return out
}

// deltaLines lists fixed, new and changed items, rank agreement, the metric, the items that differ by design and
// what was not compared; quiet: only by-design items, if any (Delta.Quiet words it).
func deltaLines(d *Delta, r *Run, esc, code, bold func(string) string) (lines []string, quiet bool) {
	var out []string
	list := func(label string, items []compare.DiffItem, count bool) {
		for i, it := range items {
			if i == maxDeltaItems {
				out = append(out, esc(fmt.Sprintf("… %d more %s (see --format json)", len(items)-i, label)))
				break
			}
			l := bold(label) + " " + esc(playbooks.WordsOf(it.Kind).Item+": "+it.Title)
			if count {
				l += esc(fmt.Sprintf(" (×%d → ×%d)", it.Before, it.After))
			}
			if it.Playbook != "" {
				l += " · " + code(it.Playbook)
			}
			out = append(out, l)
		}
	}
	list("fixed", d.Fixed, false)
	list("new", d.New, false)
	list("changed", d.Changed, true)
	if d.Agreement != "" {
		l := bold("rank agreement "+d.Agreement) + " " + esc("("+map[string]string{AgreementRegained: "was: ",
			AgreementLost: "now: "}[d.Agreement]+text.OneLine(d.AgreementSummary, 160)+")")
		if d.AgreementPlaybook != "" {
			l += " · " + code(d.AgreementPlaybook)
		}
		out = append(out, l)
	}
	if d.MetricBefore != nil && r.Metric != nil && *d.MetricBefore != *r.Metric {
		out = append(out, esc("metric "+metricText(d.MetricBefore)+" → "+metricText(r.Metric)))
	}
	quiet = len(out) == 0 && len(d.NotCompared) == 0
	// by design (an expected recompile: automatic dynamic's first), gone, new or changed count
	for _, word := range []string{"by design", "expected"} {
		for _, change := range []string{compare.ChangeGone, compare.ChangeNew, compare.ChangeCount} {
			var items []compare.DiffItem
			for _, it := range d.ByDesign {
				if it.Change == change && (it.Kind == findings.KindRecompile) == (word == "expected") {
					items = append(items, it)
				}
			}
			list(word+", "+change, items, change == compare.ChangeCount)
		}
	}
	for _, n := range d.NotCompared {
		out = append(out, esc("not compared: "+n))
	}
	return out, quiet
}

func changeText(c Change, esc, code func(string) string) string {
	switch {
	case c.What != "env":
		return esc(c.What+" ") + code(c.Before) + " → " + code(c.After)
	case c.Before == "":
		return "env " + code("+"+c.Key+"="+c.After)
	case c.After == "":
		return "env " + code("-"+c.Key) + esc(" (was "+c.Before+")")
	}
	return "env " + code(c.Key) + " " + code(c.Before) + " → " + code(c.After)
}

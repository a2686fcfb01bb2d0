package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// maxTextFindings bounds the findings listed in text and Markdown (the rest are counted).
const maxTextFindings = 40

// WriteFindingsText prints the findings, rank agreement, verdict and next step readably, fitted to o (after
// WriteReportText in `report`).
func WriteFindingsText(w io.Writer, a *triage.Analysis, o text.Options) {
	t := text.NewWriter(w, o)
	t.Blank()
	t.Linef(0, "Findings (%d)", len(a.Findings))
	if len(a.Findings) == 0 {
		t.Line(0, "  none")
	}
	for i, f := range a.Findings {
		if i == maxTextFindings {
			t.Linef(4, "  … %d more (see --format json)", len(a.Findings)-i)
			break
		}
		t.Linef(18, "  %-6s %-8s %s", strings.ToUpper(f.Severity), f.Category, f.Title)
		items := []string{"         " + string(f.Kind), findingWhere(&f), fmt.Sprintf("×%d", f.Records)}
		if f.Playbook != "" {
			items = append(items, "playbook "+f.Playbook)
		}
		t.Items(11, " · ", items...)
	}
	t.Blank()
	t.Linef(2, "Rank agreement: %s", a.RankAgreement.Summary)
	if head, lines := a.StoppedAtWords(); head != "" { // a hang the tool stopped: where each rank waited
		t.Linef(2, "%s:", head)
		for _, l := range lines {
			t.Linef(4, "  %s", l)
		}
	}
	t.Linef(2, "Verdict: %s", a.Verdict.Summary)
	for _, r := range a.Verdict.Reasons {
		t.Linef(4, "  - %s", r)
	}
	writeNextStepText(t, a)
}

func writeNextStepText(t *text.Writer, a *triage.Analysis) {
	s := a.NextStep
	if s.ID == "" {
		t.Line(2, "Next step: none: every checklist step is done.")
		return
	}
	if s.N == 0 { // a step before the six
		t.Linef(2, "Next step: %s: %s", s.Phrase(), a.State().Why(s))
	} else {
		t.Linef(2, "Next step (%d of 6): %s — preset %s (%s)", s.N, s.Title, s.Preset, s.TorchLogs)
	}
	t.Linef(4, "  goal: %s", s.Goal)
	t.Linef(4, "  done when: %s", s.DoneWhen)
	t.Linef(4, "  stop when: %s", s.StopWhen)
}

// findingWhere is the finding's place: "r.py:12 in f · ranks 0,1".
func findingWhere(f *findings.Finding) string {
	var parts []string
	if f.File != "" {
		loc := text.Site(f.File, f.Line)
		if f.Function != "" {
			loc += " in " + f.Function
		}
		parts = append(parts, loc)
	}
	if len(f.Ranks) > 0 {
		parts = append(parts, report.RankWord(f.Ranks))
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, " · ")
}

// WriteMarkdown prints the analysis as Markdown to paste into an issue.
func WriteMarkdown(w io.Writer, a *triage.Analysis) {
	rep := a.Report
	ver := "unknown"
	if rep.TorchVersion != nil {
		ver = *rep.TorchVersion
	}
	c := rep.Counts
	fmt.Fprintf(w, "## torchtriage report\n\n")
	fmt.Fprintf(w, "torch %s · %s · %s\n\n", MarkdownEscape(ver), a.Evidence.ProcessesText(), report.Plural(len(rep.Inputs), "input"))
	if len(a.Evidence.ReadOnce) > 0 { // as stderr says it
		fmt.Fprintf(w, "%s\n\n", MarkdownEscape(report.AliasesText(a.Evidence.ReadOnce)))
	}
	if len(a.Evidence.Skipped) > 0 { // as stderr says it
		fmt.Fprintf(w, "%s\n\n", MarkdownEscape(SkippedText(a.Evidence.Skipped)))
	}
	head := "| graph breaks | recompiles | limit hits | CUDA-graph skips | compile errors | runtime errors |"
	row := fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", a.BreaksValue(), a.RecompilesValue(), a.LimitHitsValue(),
		a.CudagraphSkipsValue(), a.CompileErrorsValue(), a.RuntimeErrorsValue())
	if c.CudagraphPartitions > 0 || c.CudagraphRerecords > 0 || c.CudagraphRerecordsUnknown { // as the text report counts them
		head += " non-cudagraphable partitions | CUDA-graph re-recordings |"
		row += fmt.Sprintf(" %d | %s |", c.CudagraphPartitions, strings.TrimPrefix(report.RerecordsText(c), "cudagraph re-recordings "))
	}
	if a.Uncounted() != "" { // the text's counts line: why nothing was counted, and the runtime errors
		fmt.Fprintf(w, "%s\n\n", MarkdownEscape(strings.Join(a.CountsItems(), " · ")))
	} else {
		fmt.Fprintf(w, "%s\n|%s\n%s\n\n", head, strings.Repeat("---|", strings.Count(head, "|")-1), row)
	}
	WriteCompileMarkdown(w, rep.Compile)
	if h := a.Hang; h != nil { // where each rank waits, before the verdict that rests on it
		fmt.Fprintf(w, "**Hang:** %s — %s\n\n", triage.StateWords(h.State), MarkdownEscape(h.Summary))
	}
	if aw := a.AfterWarmup; aw != nil { // the steady state: the same words as the text's line
		fmt.Fprintf(w, "**Steady state:** %s\n\n", MarkdownEscape(aw.Summary()))
	}
	if sv := rep.Serving; sv != nil { // the same words as the text's line
		fmt.Fprintf(w, "**Serving log:** %s\n\n", MarkdownEscape(sv.Words()))
	}
	if c := a.Coverage; c != nil {
		fmt.Fprintf(w, "**Coverage:** %s\n\n", MarkdownEscape(c.Words()))
	}
	state := triage.StateWords(a.Verdict.State) // said once: most summaries begin with it
	fmt.Fprintf(w, "**Verdict:** %s — %s\n\n", state, MarkdownEscape(strings.TrimPrefix(a.Verdict.Summary, state+": ")))
	if f := a.Verdict.FirstFailure; f != "" {
		fmt.Fprintf(w, "**First failure:** %s\n\n", MarkdownEscape(f))
	}

	for _, r := range a.Verdict.Reasons {
		fmt.Fprintf(w, "- %s\n", MarkdownEscape(r))
	}
	if len(a.Verdict.Reasons) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "**Rank agreement:** %s\n\n", MarkdownEscape(a.RankAgreement.Summary))
	if head, lines := a.StoppedAtWords(); head != "" {
		fmt.Fprintf(w, "**%s:**\n\n", MarkdownEscape(head))
		for _, l := range lines {
			fmt.Fprintf(w, "- %s\n", MarkdownEscape(l))
		}
		fmt.Fprintln(w)
	}
	if s := a.NextStep; s.ID != "" && s.N == 0 {
		fmt.Fprintf(w, "**Next step: %s:** %s. Done when: %s\n\n", MarkdownEscape(s.Phrase()), MarkdownEscape(a.State().Why(s)),
			MarkdownEscape(s.DoneWhen))
	} else if s.ID != "" {
		fmt.Fprintf(w, "**Next step (%d of 6):** %s — preset `%s` (`%s`). Done when: %s\n\n", s.N, MarkdownEscape(s.Title),
			s.Preset, s.TorchLogs, MarkdownEscape(s.DoneWhen))
	}
	if len(a.Findings) == 0 {
		fmt.Fprintf(w, "No findings. %s\n", MarkdownEscape(nothingText(a)))
		return
	}
	fmt.Fprintf(w, "### Findings (%d)\n\n| severity | category | finding | where | records | playbook |\n|---|---|---|---|---|---|\n", len(a.Findings))
	for i, f := range a.Findings {
		if i == maxTextFindings {
			fmt.Fprintf(w, "\n… %d more findings (see `--format json`).\n", len(a.Findings)-i)
			break
		}
		pb := ""
		if f.Playbook != "" {
			pb = "`" + f.Playbook + "`"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %d | %s |\n", f.Severity, f.Category, MarkdownEscape(f.Title),
			MarkdownEscape(findingWhere(&f)), f.Records, pb)
	}
	fmt.Fprintln(w)
	for i, f := range a.Findings {
		if i == maxTextFindings {
			break
		}
		if f.Detail == "" {
			continue
		}
		fmt.Fprintf(w, "<details><summary>%s</summary>\n\n```\n%s\n```\n\n</details>\n\n", htmlEscape(f.Title),
			strings.ReplaceAll(f.Detail, "```", "'''"))
	}
}

// mdEscape keeps text from breaking a Markdown table or starting markup.
func MarkdownEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`")
	return r.Replace(s)
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

package triage

import (
	"fmt"
	"io"
	"strings"
)

// maxTextFindings bounds the findings listed in text and Markdown (the rest are counted).
const maxTextFindings = 40

// WriteFindingsText prints the findings, rank agreement, verdict and next step readably (after
// WriteReportText in `report`).
func WriteFindingsText(w io.Writer, a *Analysis) {
	fmt.Fprintf(w, "\nFindings (%d)\n", len(a.Findings))
	if len(a.Findings) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for i, f := range a.Findings {
		if i == maxTextFindings {
			fmt.Fprintf(w, "  … %d more (see --format json)\n", len(a.Findings)-i)
			break
		}
		fmt.Fprintf(w, "  %-6s %-8s %s\n", strings.ToUpper(f.Severity), f.Category, f.Title)
		fmt.Fprintf(w, "         %s · %s · ×%d", f.Kind, findingWhere(&f), f.Records)
		if f.Playbook != "" {
			fmt.Fprintf(w, " · playbook %s", f.Playbook)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nRank agreement: %s\n", a.RankAgreement.Summary)
	fmt.Fprintf(w, "Verdict: %s\n", a.Verdict.Summary)
	for _, r := range a.Verdict.Reasons {
		fmt.Fprintf(w, "  - %s\n", OneLine(r, 160))
	}
	writeNextStepText(w, a)
}

func writeNextStepText(w io.Writer, a *Analysis) {
	s := a.NextStep
	if s.ID == "" {
		fmt.Fprintln(w, "Next step: none: every checklist step is done.")
		return
	}
	fmt.Fprintf(w, "Next step (%d of 6): %s — preset %s (%s)\n", s.N, s.Title, s.Preset, s.TorchLogs)
	fmt.Fprintf(w, "  goal: %s\n  done when: %s\n  stop when: %s\n", s.Goal, s.DoneWhen, s.StopWhen)
}

// findingWhere is the finding's place: "r.py:12 in f · ranks 0,1".
func findingWhere(f *Finding) string {
	var parts []string
	if f.File != "" {
		loc := site(f.File, f.Line)
		if f.Function != "" {
			loc += " in " + f.Function
		}
		parts = append(parts, loc)
	}
	if len(f.Ranks) > 0 {
		parts = append(parts, rankWord(f.Ranks))
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, " · ")
}

// WriteMarkdown prints the analysis as Markdown to paste into an issue.
func WriteMarkdown(w io.Writer, a *Analysis) {
	rep := a.Report
	ver := "unknown"
	if rep.TorchVersion != nil {
		ver = *rep.TorchVersion
	}
	c := rep.Counts
	fmt.Fprintf(w, "## torchtriage report\n\n")
	fmt.Fprintf(w, "torch %s · %s · %d input(s)\n\n", MarkdownEscape(ver), rankText(rep.Ranks), len(rep.Inputs))
	fmt.Fprintf(w, "| graph breaks | recompiles | limit hits | CUDA-graph skips | compile errors |\n|---|---|---|---|---|\n")
	fmt.Fprintf(w, "| %d (%d records) | %d | %d | %d | %d |\n\n", c.GraphBreaks, c.GraphBreakRecords, c.Recompiles,
		c.RecompileLimitHits, c.CudagraphSkips, c.CompileErrors)
	WriteCompileMarkdown(w, rep.Compile)
	state := "not steady"
	if a.Verdict.Steady {
		state = "steady"
	}
	fmt.Fprintf(w, "**Verdict:** %s — %s\n\n", state, MarkdownEscape(a.Verdict.Summary))
	for _, r := range a.Verdict.Reasons {
		fmt.Fprintf(w, "- %s\n", MarkdownEscape(OneLine(r, 200)))
	}
	if len(a.Verdict.Reasons) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "**Rank agreement:** %s\n\n", MarkdownEscape(a.RankAgreement.Summary))
	if s := a.NextStep; s.ID != "" {
		fmt.Fprintf(w, "**Next step (%d of 6):** %s — preset `%s` (`%s`). Done when: %s\n\n", s.N, MarkdownEscape(s.Title),
			s.Preset, s.TorchLogs, MarkdownEscape(s.DoneWhen))
	}
	if len(a.Findings) == 0 {
		fmt.Fprintln(w, "No findings.")
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

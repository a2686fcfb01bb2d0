package render

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// WriteReportText prints a readable summary of an analysis fitted to o: prose and evidence wrap, never cut. The
// header, the counts, the per-event sections and "nothing to report" all come from the analysis, as the findings
// and the verdict printed after them (WriteFindingsText) do.
func WriteReportText(w io.Writer, an *triage.Analysis, o text.Options) {
	rep := an.Report
	t := text.NewWriter(w, o)
	ver := "unknown"
	if rep.TorchVersion != nil {
		ver = *rep.TorchVersion
	} else if rep.LogFormat != "" {
		ver = "unknown (" + report.LogFormatWords(rep.LogFormat, "of ") + ")"
	}
	t.Items(2, " · ", "torchtriage report", report.Plural(len(rep.Inputs), "input"), "torch "+ver, an.Evidence.ProcessesText())
	t.Items(2, " · ", an.CountsItems()...)
	t.Linef(2, "Based on: %s", strings.Join(an.Verdict.Basis, "; "))
	if f := an.Verdict.FirstFailure; f != "" {
		t.Linef(2, "First failure: %s", f)
	}
	if h := an.Hang; h != nil { // where each rank waits, on the main summary
		t.Linef(2, "Hang: %s: %s", triage.StateWords(h.State), h.Summary)
	}
	if aw := an.AfterWarmup; aw != nil { // the steady state, by step
		t.Linef(2, "Steady state: %s", aw.Summary())
	}
	if sv := rep.Serving; sv != nil { // a serving framework's own compile lines (vLLM, SGLang)
		t.Linef(2, "Serving log: %s", sv.Words())
	}
	if c := an.Coverage; c != nil { // beside the break count: what the probes counted as captured
		t.Linef(2, "Coverage: %s", c.Words())
	}
	if rep.Partial {
		t.Linef(2, "partial input: the text looks cut (%s); counts are what it shows, not the whole run",
			strings.Join(rep.PartialReasons, "; "))
	}
	if len(rep.GraphBreaks) > 0 {
		t.Blank()
		t.Line(0, "Graph breaks")
		for _, b := range rep.GraphBreaks {
			what := b.GBType
			if what == "" {
				what = b.Reason
			}
			if b.GBID != "" {
				what += " [" + b.GBID + "]"
			}
			t.Linef(6, "  %s %s  ×%d %s  %s", text.Site(b.File, b.Line), b.Function, b.Records, an.Evidence.ItemRanks(b.Ranks), text.OneLine(what, text.EvidenceMax))
			if b.UserFile != "" && (b.UserFile != b.File || b.UserLine != b.Line) {
				t.Linef(8, "      from your code at %s %s", text.Site(b.UserFile, b.UserLine), b.UserFunc)
			}
		}
	}
	if len(rep.Recompiles) > 0 {
		t.Blank()
		t.Line(0, "Recompiles")
		for _, r := range rep.Recompiles {
			t.Linef(6, "  %s %s  ×%d %s", r.Function, text.Site(r.File, r.Line), r.Records, an.Evidence.ItemRanks(r.Ranks))
			if r.Function == "inner" && strings.HasSuffix(strings.ReplaceAll(r.File, `\`, "/"), "torch/_dynamo/external_utils.py") {
				for _, w := range wrappedModules(an) { // the findings' (the probe's) names for torch's wrapper
					t.Linef(8, "      torch's wrapper of the compiled module %s", w)
				}
			}
			for i, f := range r.Failures {
				if i == 4 {
					t.Linef(8, "      … %d more guard failures", len(r.Failures)-4)
					break
				}
				t.Linef(10, "      %s %s", f.CompileID, text.OneLine(f.Guard, text.EvidenceMax))
			}
		}
	}
	for _, l := range rep.RecompileLimitHits {
		t.Blank()
		t.Linef(6, "Limit hit ×%d %s: %s in %s %s — %s",
			l.Records, an.Evidence.ItemRanks(l.Ranks), l.LimitWords(), l.Function, text.Site(l.File, l.Line), l.Then())
		t.Linef(8, "      last reason: %s", text.OneLine(l.LastReason, text.EvidenceMax))
	}
	for _, s := range rep.CudagraphSkips {
		t.Blank()
		t.Linef(6, "CUDA graphs skipped ×%d %s: %s", s.Records, an.Evidence.ItemRanks(s.Ranks), text.OneLine(s.Reason, text.EvidenceMax))
		if s.File != "" {
			t.Linef(8, "      at %s %s", text.Site(s.File, s.Line), s.Function)
		}
	}
	for _, p := range rep.CudagraphPartitions {
		t.Blank()
		t.Linef(6, "Non-cudagraphable partitions ×%d %s: %s", p.Partitions, an.Evidence.ItemRanks(p.Ranks), cmp.Or(p.Reason, "reason not logged"))
		if p.File != "" {
			t.Linef(8, "      at %s %s", text.Site(p.File, p.Line), p.Function)
		}
	}
	for _, r := range rep.CudagraphRerecords {
		t.Blank()
		switch {
		case r.Unknown:
			t.Linef(6, "CUDA graph did not match a call ×%d %s: %s: %s (re-recordings not known: no Recording lines)",
				r.Records, an.Evidence.ItemRanks(r.Ranks), r.Function, text.OneLine(r.Reason, text.EvidenceMax))
		case r.Rerecords == 0:
			t.Linef(6, "CUDA graph did not match a call ×%d %s, not recorded again: %s: %s", r.Records, an.Evidence.ItemRanks(r.Ranks),
				r.Function, text.OneLine(r.Reason, text.EvidenceMax))
		default:
			t.Linef(6, "CUDA graph re-recorded ×%d %s: %s: %s (%s of earlier recordings)", r.Rerecords,
				an.Evidence.ItemRanks(r.Ranks), r.Function, text.OneLine(r.Reason, text.EvidenceMax), report.Plural(r.Records, "failed check"))
		}
	}
	for _, e := range rep.CompileErrors {
		writeErrorText(t, an.Evidence, "Compile error", &e)
	}
	for _, e := range rep.RuntimeErrors {
		writeErrorText(t, an.Evidence, "Runtime error", &e)
	}
	for i := range rep.Exceptions {
		if e := &rep.Exceptions[i]; e.Caught {
			t.Blank()
			t.Line(6, an.CaughtText(e))
		}
	}
	WritePerRank(t, rep, an)
	WriteCompileText(w, rep.Compile)
	if len(an.Findings) == 0 {
		t.Blank()
		t.Line(0, nothingText(an))
	}
}

// writeErrorText prints a fatal error: its class and what went wrong (errorGist), the message's own headline
// under it when that is another line (NCCL's "NCCL error in: …, invalid usage …"), and where it was raised.
func writeErrorText(t *text.Writer, ev report.ReportEvidence, label string, e *report.ErrorSummary) {
	t.Blank()
	gist := text.OneLine(report.ErrorGist(e.Message), text.EvidenceMax)
	t.Linef(6, "%s ×%d %s %s: %s", label, e.Records, ev.ItemRanks(e.Ranks), e.Class, gist)
	if head := text.OneLine(report.Headline(e.Message), text.EvidenceMax); head != "" && !strings.HasPrefix(gist, head) {
		t.Linef(8, "      %s", head)
	}
	if e.Cause != "" {
		t.Linef(8, "      raised from %s", text.OneLine(e.Cause, text.EvidenceMax))
	}
	if e.File != "" {
		t.Linef(8, "      at %s", text.Site(e.File, e.Line))
	}
}

// nothingText says what an empty report means: nothing found is news only when the evidence says it was looked for.
func nothingText(an *triage.Analysis) string {
	switch an.Verdict.State {
	case triage.StateSteady:
		s := "Nothing to report: no graph break, recompile, limit hit, CUDA-graph skip or error in the input."
		if an.SkipsNotLogged() != "" {
			s = "Nothing to report: no graph break, recompile, limit hit or error in the input;"
		}
		for _, c := range an.SteadyCaveats() {
			s += " " + c
		}
		return s
	case triage.StateNoEvidence:
		why := strings.TrimPrefix(an.Verdict.Summary, "no evidence: ")
		if strings.Contains(why, ", but ") { // "torch ran, but nothing shows …": one "but" is enough
			return "Nothing found: " + why
		}
		return "Nothing found, but " + why
	}
	return "Nothing found in what the input holds: " + an.Verdict.Summary
}

// WriteReport renders an analysis in one of the report formats: "text" (the counts, then the findings with
// their playbooks, rank agreement, verdict and next step, fitted to o), "json" (schema torchtriage.report) or
// "markdown" (o does not apply to these two).
func WriteReport(w io.Writer, an *triage.Analysis, format string, o text.Options) error {
	switch format {
	case "json":
		return writeReportJSON(w, JSONOf(an), " ")
	case "markdown":
		WriteMarkdown(w, an)
	case "text":
		WriteReportText(w, an, o)
		WriteFindingsText(w, an, o)
	default:
		return fmt.Errorf("unknown format %q", format)
	}
	return nil
}

// wrappedModules are the compiled modules the recompile findings name for torch's wrapper inner, each with the
// user's call of it and its torch.compile call: "TransformerEncoderLayer, called at module_wrapper.py:12 in step,
// compiled at module_wrapper.py:9 (the probe saw it)".
func wrappedModules(an *triage.Analysis) []string {
	var out []string
	for _, f := range an.Findings {
		if f.Module == "" {
			continue
		}
		w := fmt.Sprintf("%s, called at %s in %s", f.Module, text.Site(f.File, f.Line), f.Function)
		if at := f.CompiledAtText(); at != "" {
			w += ", " + at
		}
		w += " (the probe saw it)"
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

package triage

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// WriteReportText prints a readable summary.
func WriteReportText(w io.Writer, rep *Report) {
	ver := "unknown"
	if rep.TorchVersion != nil {
		ver = *rep.TorchVersion
	}
	fmt.Fprintf(w, "torchtriage report · %d input(s) · torch %s · %s\n", len(rep.Inputs), ver, rankText(rep.Ranks))
	c := rep.Counts
	fmt.Fprintf(w, "graph breaks %d distinct (%d records) · recompiles %d · limit hits %d · cudagraph skips %d · compile errors %d\n",
		c.GraphBreaks, c.GraphBreakRecords, c.Recompiles, c.RecompileLimitHits, c.CudagraphSkips, c.CompileErrors)
	if rep.Partial {
		fmt.Fprintf(w, "partial input: the text looks cut (%s); counts are what it shows, not the whole run\n",
			strings.Join(rep.PartialReasons, "; "))
	}
	if len(rep.GraphBreaks) > 0 {
		fmt.Fprintln(w, "\nGraph breaks")
		for _, b := range rep.GraphBreaks {
			what := b.GBType
			if what == "" {
				what = b.Reason
			}
			if b.GBID != "" {
				what += " [" + b.GBID + "]"
			}
			fmt.Fprintf(w, "  %s %s  ×%d %s  %s\n", site(b.File, b.Line), b.Function, b.Records, rankText(b.Ranks), OneLine(what, 100))
			if b.UserFile != "" && (b.UserFile != b.File || b.UserLine != b.Line) {
				fmt.Fprintf(w, "      from your code at %s %s\n", site(b.UserFile, b.UserLine), b.UserFunc)
			}
		}
	}
	if len(rep.Recompiles) > 0 {
		fmt.Fprintln(w, "\nRecompiles")
		for _, r := range rep.Recompiles {
			fmt.Fprintf(w, "  %s %s  ×%d %s\n", r.Function, site(r.File, r.Line), r.Records, rankText(r.Ranks))
			for i, f := range r.Failures {
				if i == 4 {
					fmt.Fprintf(w, "      … %d more guard failures\n", len(r.Failures)-4)
					break
				}
				fmt.Fprintf(w, "      %s %s\n", f.CompileID, OneLine(f.Guard, 110))
			}
		}
	}
	for _, l := range rep.RecompileLimitHits {
		fmt.Fprintf(w, "\nLimit hit ×%d %s: config.%s (%d) in %s %s — after this the frame runs eager\n      last reason: %s\n",
			l.Records, rankText(l.Ranks), l.Limit, l.Value, l.Function, site(l.File, l.Line), OneLine(l.LastReason, 100))
	}
	for _, s := range rep.CudagraphSkips {
		fmt.Fprintf(w, "\nCUDA graphs skipped ×%d %s: %s\n", s.Records, rankText(s.Ranks), OneLine(s.Reason, 100))
	}
	for _, e := range rep.CompileErrors {
		fmt.Fprintf(w, "\nCompile error ×%d %s %s: %s", e.Records, rankText(e.Ranks), e.Class, OneLine(e.Message, 100))
		if e.File != "" {
			fmt.Fprintf(w, "\n      at %s", site(e.File, e.Line))
		}
		fmt.Fprintln(w)
	}
	if len(rep.PerRank) > 1 {
		fmt.Fprintln(w, "\nPer rank")
		keys := make([]int, 0, len(rep.PerRank))
		for k := range rep.PerRank {
			n, _ := strconv.Atoi(k)
			keys = append(keys, n)
		}
		sort.Ints(keys)
		for _, k := range keys {
			c := rep.PerRank[strconv.Itoa(k)]
			fmt.Fprintf(w, "  rank %d: %d breaks, %d recompiles, %d limit hits, %d skips, %d errors\n",
				k, c.GraphBreaks, c.Recompiles, c.RecompileLimitHits, c.CudagraphSkips, c.CompileErrors)
		}
	}
	if c == (Counts{}) {
		fmt.Fprintln(w, "\nNothing to report: no graph break, recompile, limit hit, CUDA-graph skip or compile error in the input.")
	}
}

func site(file string, line int) string {
	if file == "" {
		return "?"
	}
	if line == 0 {
		return filepath.Base(file)
	}
	return filepath.Base(file) + ":" + strconv.Itoa(line)
}

func rankText(ranks []int) string {
	if len(ranks) == 0 {
		return "single process"
	}
	return "ranks " + RankRanges(ranks)
}

// RankRanges renders sorted ranks compactly: "0,2–7".
func RankRanges(ranks []int) string {
	var parts []string
	for i := 0; i < len(ranks); {
		j := i
		for j+1 < len(ranks) && ranks[j+1] == ranks[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, strconv.Itoa(ranks[i]))
		case j == i+1:
			parts = append(parts, strconv.Itoa(ranks[i]), strconv.Itoa(ranks[j]))
		default:
			parts = append(parts, strconv.Itoa(ranks[i])+"–"+strconv.Itoa(ranks[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

func OneLine(s string, max int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// WriteReport renders an analysis in one of the report formats: "text" (the counts, then the findings with
// their playbooks, rank agreement, verdict and next step), "json" (schema torchtriage.report) or "markdown".
func WriteReport(w io.Writer, an *Analysis, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(an.JSON())
	case "markdown":
		WriteMarkdown(w, an)
	case "text":
		WriteReportText(w, an.Report)
		WriteFindingsText(w, an)
	default:
		return fmt.Errorf("unknown format %q", format)
	}
	return nil
}

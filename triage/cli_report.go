package triage

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
)

const reportUsage = `usage: torchtriage report [--format text|json|markdown] PATH... (or - for stdin)

Reads torch.compile logs (TORCH_LOGS output of torch 2.0-2.14, torchrun/srun rank prefixes,
tracebacks) and TORCH_TRACE files or directories, and prints graph breaks, recompiles, recompile-limit
hits, CUDA-graph skips and compile errors for all inputs together, then the findings with their
playbooks, whether the ranks agree, the verdict (steady state or not) and the next checklist step.
A run directory's probe files (probe/rank*.json) add settings that differ between ranks.
--format markdown prints a summary to paste into an issue.
Exit status: 0 success, 2 usage error or unreadable input.
`

// CmdReport implements `torchtriage report`.
func CmdReport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := newCLI("report", reportUsage, stderr)
	format := c.fs.String("format", "text", "output format: text, json or markdown")
	paths, code, ok := c.parse(args)
	if !ok {
		return code
	}
	if *format != "text" && *format != "json" && *format != "markdown" {
		return c.fail("unknown --format %q (text, json or markdown)", *format)
	}
	if len(paths) == 0 {
		return c.fail("no input given (a file, a directory or - for stdin)")
	}
	// A short-lived run with a small live heap: collect only near a fixed budget (peak RSS target 256 MB).
	debug.SetMemoryLimit(160 << 20)
	debug.SetGCPercent(-1)
	rep, warnings, err := BuildReport(paths, stdin)
	for _, w := range warnings {
		fmt.Fprintf(stderr, "torchtriage report: warning: %s\n", w)
	}
	if err != nil {
		fmt.Fprintf(stderr, "torchtriage report: %v\n", err)
		return 2
	}
	an := Analyze(rep, loadPlaybooks("report", stderr), readProbes(paths, "report", stderr))
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		if err := enc.Encode(an.JSON()); err != nil {
			fmt.Fprintf(stderr, "torchtriage report: %v\n", err)
			return 2
		}
	case "markdown":
		WriteMarkdown(stdout, an)
	default:
		WriteReportText(stdout, rep)
		WriteFindingsText(stdout, an)
	}
	return 0
}

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
			fmt.Fprintf(w, "  %s %s  ×%d %s  %s\n", site(b.File, b.Line), b.Function, b.Records, rankText(b.Ranks), oneLine(what, 100))
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
				fmt.Fprintf(w, "      %s %s\n", f.CompileID, oneLine(f.Guard, 110))
			}
		}
	}
	for _, l := range rep.RecompileLimitHits {
		fmt.Fprintf(w, "\nLimit hit ×%d %s: config.%s (%d) in %s %s — after this the frame runs eager\n      last reason: %s\n",
			l.Records, rankText(l.Ranks), l.Limit, l.Value, l.Function, site(l.File, l.Line), oneLine(l.LastReason, 100))
	}
	for _, s := range rep.CudagraphSkips {
		fmt.Fprintf(w, "\nCUDA graphs skipped ×%d %s: %s\n", s.Records, rankText(s.Ranks), oneLine(s.Reason, 100))
	}
	for _, e := range rep.CompileErrors {
		fmt.Fprintf(w, "\nCompile error ×%d %s %s: %s", e.Records, rankText(e.Ranks), e.Class, oneLine(e.Message, 100))
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

func oneLine(s string, max int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

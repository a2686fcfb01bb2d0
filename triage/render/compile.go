package render

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// The compile-time and cache tables of the text and markdown reports, built once as cells.

// maxFrameRows is how many frames (slowest first) the tables list.
const MaxFrameRows = 6

// table is a header and rows of cells; "–" is a value no source gave.
type table struct {
	head []string
	rows [][]string
}

func Secs(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%.2fs", *p)
}

func cacheCell(c report.Caches, name string) string {
	s, ok := c[name]
	if !ok {
		return "–"
	}
	return s.Short()
}

// compileTables builds the per-rank table and the slowest frames. Ranks with equal figures share a row ("ranks
// 0–1023"), as in the "Per rank" section, at most MaxPerRankLines of them; more says what the rows leave out ("" when
// nothing).
func compileTables(c *report.CompileReport) (ranks, frames table, more string) {
	phaseHead := report.PhaseNames[:5] // without cache_lookup, which overlaps them
	ranks.head = append(append([]string{"rank", "total"}, phaseHead...), "frames", "FX cache", "AOT cache", "PGO", "source")
	rs := c.Ranks()
	keys := report.SortedInts(rs)
	figures := func(rc *report.RankCompile) []string {
		cells := []string{Secs(rc.TotalS)}
		for _, p := range phaseHead {
			cells = append(cells, Secs(rc.ByPhase.Get(p)))
		}
		nf := "–"
		if rc.TotalS != nil {
			nf = report.Itoa(rc.Frames)
		}
		return append(cells, nf, cacheCell(rc.Caches, "fx_graph"), cacheCell(rc.Caches, "aot_autograd"),
			cacheCell(rc.Caches, "pgo"), rc.Source)
	}
	row := func(label string, rc *report.RankCompile) {
		ranks.rows = append(ranks.rows, append([]string{label}, figures(rc)...))
	}
	if _, ok := rs[-1]; ok {
		row("process", rs[-1])
	}
	ranked := slices.DeleteFunc(slices.Clone(keys), func(r int) bool { return r < 0 })
	groups := groupRanks(ranked, func(r int) string { return strings.Join(figures(rs[r]), "\x00") })
	for i, g := range groups {
		if i == MaxPerRankLines {
			n := 0
			for _, g := range groups[i:] {
				n += len(g)
			}
			more = moreGroupsText(len(groups)-i, n)
			break
		}
		row(report.RankWord(g), rs[g[0]])
	}
	if len(keys) > 1 {
		all := report.RankCompile{Source: c.Source, TotalS: c.TotalS, ByPhase: c.ByPhase, Caches: c.Caches}
		for _, rc := range rs {
			all.Frames += rc.Frames
		}
		row("all", &all)
	}
	fs := append([]*report.FrameTime(nil), c.Frames...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].TotalS > fs[j].TotalS })
	frames.head = append([]string{"frame", "rank", "id", "total"}, append(phaseHead[:4:4], "cache")...)
	for i, f := range fs {
		if i == MaxFrameRows {
			frames.rows = append(frames.rows, []string{fmt.Sprintf("… %d more", len(fs)-i)})
			break
		}
		rank := "–"
		if f.Rank != nil {
			rank = report.Itoa(*f.Rank)
		}
		cells := []string{frameName(f), rank, f.CompileID, Secs(&f.TotalS)}
		for _, p := range phaseHead[:4] {
			cells = append(cells, Secs(f.ByPhase.Get(p)))
		}
		cache := f.Cache
		if cache == "" {
			cache = "–"
		}
		frames.rows = append(frames.rows, append(cells, cache))
	}
	return ranks, frames, more
}

func frameName(f *report.FrameTime) string {
	if f.Function == "" {
		return "?"
	}
	return f.Function + " " + text.Site(f.File, f.Line)
}

// WriteCompileText prints the compile tables (nothing when no input had compile data).
func WriteCompileText(w io.Writer, c *report.CompileReport) {
	if c == nil {
		return
	}
	ranks, frames, more := compileTables(c)
	fmt.Fprintf(w, "\nCompile time and caches (from %s)\n", c.Source)
	writeAligned(w, ranks)
	if more != "" {
		fmt.Fprintf(w, "  %s\n", more)
	}
	if rt := c.Runtime; rt != nil {
		fmt.Fprintf(w, "  run-time work charged to compiles (not in the total): autotune %s · cudagraphify %s\n",
			Secs(rt.AutotuneS), Secs(rt.CudagraphifyS))
	}
	if len(frames.rows) > 0 {
		fmt.Fprintln(w, "  slowest frames")
		writeAligned(w, frames)
	}
	for _, name := range report.CacheNames {
		reasons := c.Caches[name].BypassReasons
		for _, reason := range report.SortedStrings(reasons) {
			fmt.Fprintf(w, "  %s cache bypassed ×%d: %s\n", name, reasons[reason], text.OneLine(reason, 100))
		}
	}
}

func writeAligned(w io.Writer, t table) {
	width := make([]int, len(t.head))
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			if i < len(width) {
				width[i] = max(width[i], len([]rune(c)))
			}
		}
	}
	for _, r := range append([][]string{t.head}, t.rows...) {
		var b strings.Builder
		b.WriteString("  ")
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-len([]rune(c))))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// WriteCompileMarkdown prints the compile tables as Markdown.
func WriteCompileMarkdown(w io.Writer, c *report.CompileReport) {
	if c == nil {
		return
	}
	ranks, frames, more := compileTables(c)
	fmt.Fprintf(w, "### Compile time and caches (from %s)\n\n", c.Source)
	writeMarkdownTable(w, ranks)
	if more != "" {
		fmt.Fprintf(w, "%s\n\n", MarkdownEscape(more))
	}
	if len(frames.rows) > 0 {
		writeMarkdownTable(w, frames)
	}
}

func writeMarkdownTable(w io.Writer, t table) {
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(t.head, " | "), strings.Repeat("---|", len(t.head)))
	for _, r := range t.rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = MarkdownEscape(filepath.ToSlash(c))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	fmt.Fprintln(w)
}

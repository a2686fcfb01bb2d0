package tui

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// The timeline's compile section per rank: one bar per rank split by phase (report.compile per_rank), its cache
// lookups marked (✓ hit, ✗ miss, ⊘ bypass, w written), and the first compile where the ranks stop doing the same thing.

// phaseGlyphs draw the phases so that they read without colour.
var phaseGlyphs = []struct{ name, glyph string }{{"dynamo", "█"}, {"aot", "▓"}, {"inductor", "▒"}, {"kernels", "░"},
	{"autotune", "▪"}}

var cacheShort = map[string]string{"fx_graph": "fx", "aot_autograd": "aot", "pgo": "pgo"}

// rankCompileBars is the per-rank compile section of the timeline (nothing when the run has no per-rank compile
// data).
func (m *Model) rankCompileBars(r *runView, iw int) []string {
	if r.snap == nil || r.snap.report == nil || r.snap.report.Compile == nil {
		return nil
	}
	c := r.snap.report.Compile
	rs := c.Ranks()
	ranks := make([]int, 0, len(rs))
	top := 0.0
	for rk, rc := range rs {
		ranks = append(ranks, rk)
		if rc.TotalS != nil {
			top = max(top, *rc.TotalS)
		}
	}
	if len(ranks) == 0 {
		return nil
	}
	sort.Ints(ranks)
	th := m.th
	var legend []string
	for i, p := range phaseGlyphs {
		legend = append(legend, th.bars[i].Render(p.glyph)+" "+p.name)
	}
	out := []string{"", th.title.Render(" Compile time per rank, by phase") + th.dim.Render(" ("+c.Source+")"),
		" " + strings.Join(legend, "  ") + th.dim.Render("   cache: ✓ hit ✗ miss ⊘ bypass w written")}
	barW := max(iw-10-9-30, 10)
	for _, rk := range ranks {
		rc := rs[rk]
		label := "rank " + strconv.Itoa(rk)
		if rk < 0 {
			label = "process"
		}
		total, bar := "      –", th.dim.Render(cells.Fit("no compile times", barW))
		if rc.TotalS != nil && top > 0 {
			total, bar = fmt.Sprintf("%6.2fs", *rc.TotalS), m.phaseBar(rc.ByPhase, top, barW)
		}
		out = append(out, fmt.Sprintf(" %-9s %s %s  %s", label, total, bar, cacheMarks(rc.Caches)))
	}
	if d := divergence(c); d != "" {
		out = append(out, " "+th.warn.Render(d))
	}
	return out
}

// phaseBar draws a rank's phases as one bar of at most w cells, scaled to top seconds, padded to w.
func (m *Model) phaseBar(p report.Phases, top float64, w int) string {
	var b strings.Builder
	used := 0
	for i, ph := range phaseGlyphs {
		v := p.Get(ph.name)
		if v == nil || *v <= 0 {
			continue
		}
		n := min(max(int(math.Round(*v/top*float64(w))), 1), w-used)
		if n <= 0 {
			break
		}
		b.WriteString(m.th.bars[i].Render(strings.Repeat(ph.glyph, n)))
		used += n
	}
	return b.String() + strings.Repeat(" ", w-used)
}

// cacheMarks is "fx 2✓  aot 1✓  pgo 1✓" or "fx 4✗  aot 2✗  pgo 2w": the lookups (and writes) of each cache
// that had any.
func cacheMarks(cs report.Caches) string {
	var parts []string
	for _, name := range report.CacheNames {
		s, ok := cs[name]
		if !ok {
			continue
		}
		var p []string
		for _, x := range []struct {
			n    int
			mark string
		}{{s.Hit, "✓"}, {s.Miss, "✗"}, {s.Bypass, "⊘"}, {s.Writes, "w"}} {
			if x.n > 0 {
				p = append(p, strconv.Itoa(x.n)+x.mark)
			}
		}
		if len(p) > 0 {
			parts = append(parts, cacheShort[name]+" "+strings.Join(p, " "))
		}
	}
	return strings.Join(parts, "  ")
}

// divergence words the first compile where the ranks differ (a frame only some compile, another function, another
// cache state, a time twice as long and a second longer): "ranks diverge at compile 0/0 `inner`: rank 0 warm
// 2.59s · rank 1 cold 5.48s"; "ranks compile alike" when they do not; "" with fewer than two ranks of frames.
func divergence(c *report.CompileReport) string {
	byRank := map[int][]*report.FrameTime{}
	for _, f := range c.Frames {
		if f.Rank != nil && *f.Rank >= 0 {
			byRank[*f.Rank] = append(byRank[*f.Rank], f)
		}
	}
	if len(byRank) < 2 {
		return ""
	}
	ranks := make([]int, 0, len(byRank))
	n := 0
	for rk, fs := range byRank {
		ranks = append(ranks, rk)
		sort.SliceStable(fs, func(i, j int) bool { return compileOrder(fs[i].CompileID) < compileOrder(fs[j].CompileID) })
		n = max(n, len(fs))
	}
	sort.Ints(ranks)
	for i := range n {
		var parts []string
		var first *report.FrameTime
		differ := false
		lo, hi := math.Inf(1), 0.0
		for _, rk := range ranks {
			fs := byRank[rk]
			if i >= len(fs) {
				parts, differ = append(parts, fmt.Sprintf("rank %d none", rk)), true
				continue
			}
			f := fs[i]
			if first == nil {
				first = f
			} else if f.CompileID != first.CompileID || f.Function != first.Function || f.Cache != first.Cache {
				differ = true
			}
			lo, hi = min(lo, f.TotalS), max(hi, f.TotalS)
			parts = append(parts, strings.TrimSpace(fmt.Sprintf("rank %d %s %.2fs", rk, f.Cache, f.TotalS)))
		}
		if differ || (hi-lo >= 1 && hi >= 2*lo) {
			return fmt.Sprintf("ranks diverge at compile %s `%s`: %s", first.CompileID, first.Function, strings.Join(parts, " · "))
		}
	}
	return "ranks compile alike: the same frames in the same order, with the same cache state"
}

// compileOrder sorts compile ids "3/1" by frame, then attempt.
func compileOrder(id string) int {
	f, a, _ := strings.Cut(id, "/")
	fi, _ := strconv.Atoi(f)
	ai, _ := strconv.Atoi(a)
	return fi*10000 + ai
}

package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/text"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// timeline glyphs, most important first: a cell shows the most important event that fell into it.
var tlGlyph = map[tlKind]string{tlLimit: "▲", tlOther: "✗", tlRecompile: "●", tlBreak: "▪", tlStall: "░"}

var tlOrder = []tlKind{tlLimit, tlOther, tlRecompile, tlBreak, tlStall}

// timelineText draws compile events over the run's wall time, one row per rank group, so a recompile storm, a
// late recompile after warm-up or a straggler rank shows at a glance; then the probe's compile time as bars. The
// counts above it are the report's (Analysis.CountsItems); records without a time stamp are counted there and
// named as not placed, never dropped in silence.
func (m *Model) timelineText(w int) (string, []string) {
	r := m.cur
	if r == nil || r.snap == nil {
		return "Timeline", []string{" no run yet"}
	}
	s := r.snap
	span := s.span
	for _, e := range s.timeline {
		span = max(span, e.at)
	}
	lines := m.timelineCounts(s, w-4)
	if why := m.nothingToPlace(r); why != "" {
		lines = append(append(lines, ""), m.dimWrap(why, w-4)...)
		if s.analysis != nil && !s.analysis.Evidence.TorchSeen {
			return "Timeline", lines
		}
		lines = append(lines, m.rankCompileBars(r, w-4)...)
		return "Timeline", append(lines, m.compileBars(r, w-4)...)
	}
	lines = append(lines, "")
	lines = append(lines, m.timelineLanes(s, span, w)...)
	if u := untimedLine(s.untimed); u != "" {
		lines = append(append(lines, ""), m.dimWrap(u, w-4)...)
	}
	if b := burstLine(s, span); b != "" {
		lines = append(lines, "", b)
	}
	lines = append(lines, m.stepLanes(s, w)...)
	lines = append(lines, m.rankCompileBars(r, w-4)...)
	lines = append(lines, m.compileBars(r, w-4)...)
	if m.opt.mode == modeOpen {
		return fmt.Sprintf("Timeline · %s (log time stamps)", fmtDur(span)), lines
	}
	return fmt.Sprintf("Timeline · run %d · %s", r.id, fmtDur(span)), lines
}

// timelineLanes are the legend, one lane per rank group and the time axis.
func (m *Model) timelineLanes(s *snapshot, span time.Duration, w int) []string {
	th := m.th
	label := 12
	tw := max(w-4-label, 10)
	lines := []string{" " + th.dim.Render("▪ break  ● recompile  ▲ limit hit  ✗ error/skip  ░ stall (no output)"), ""}
	for _, g := range timelineGroups(s) {
		slots := make([]tlKind, tw)
		has := make([]bool, tw)
		counts := make([]int, tw)
		for _, e := range s.timeline {
			if e.kind != tlStall && !g.has(e.rank) {
				continue
			}
			c := cell(e.at, span, tw)
			counts[c]++
			if !has[c] || rankOf(e.kind) < rankOf(slots[c]) {
				slots[c], has[c] = e.kind, true
			}
			if e.kind == tlStall { // a stall covers its span; any other event in it shows over it
				for i := c + 1; i <= stallEndCell(e, span, tw); i++ {
					if !has[i] {
						slots[i], has[i] = tlStall, true
					}
				}
			}
		}
		var b strings.Builder
		for i := range slots {
			if !has[i] {
				b.WriteString(th.dim.Render("·"))
				continue
			}
			st := th.bars[barIndex(slots[i])]
			if counts[i] > 1 {
				st = st.Bold(true)
			}
			b.WriteString(st.Render(tlGlyph[slots[i]]))
		}
		lines = append(lines, " "+cells.Fit(g.label, label)+" "+b.String())
	}
	return append(lines, " "+strings.Repeat(" ", label)+" "+th.dim.Render(axisLine(tw, span)))
}

type tlGroup struct {
	label string
	ranks []int // nil: every event
}

func (g tlGroup) has(rank int) bool { return g.ranks == nil || containsInt(g.ranks, rank) }

// timelineGroups: one row for a single process, one per rank up to 8 ranks (a straggler stands out), else
// one per group of ranks that saw the same findings.
func timelineGroups(s *snapshot) []tlGroup {
	if len(s.ranks) < 2 {
		return []tlGroup{{label: "process"}}
	}
	var out []tlGroup
	groups := s.agree.Groups
	if len(groups) == 0 { // a live run's ranks as they differ so far
		groups = s.agree.SoFar
	}
	if len(s.ranks) <= 8 || len(groups) == 0 {
		for _, rk := range s.ranks {
			out = append(out, tlGroup{label: fmt.Sprintf("rank %d", rk), ranks: []int{rk}})
		}
		return out
	}
	for _, g := range groups {
		out = append(out, tlGroup{label: rankWord(g.Ranks) + " " + text.RankRanges(g.Ranks), ranks: g.Ranks})
	}
	return out
}

// stallEndCell is the cell of a stall's end: the end of the axis while it goes on.
func stallEndCell(e tlEvent, span time.Duration, n int) int {
	if e.end <= 0 {
		return n - 1
	}
	return cell(e.end, span, n)
}

func cell(at, span time.Duration, n int) int {
	if span <= 0 {
		return 0
	}
	return min(max(int(int64(at)*int64(n-1)/int64(span)), 0), n-1)
}

func rankOf(k tlKind) int {
	for i, x := range tlOrder {
		if x == k {
			return i
		}
	}
	return len(tlOrder)
}

func barIndex(k tlKind) int {
	switch k {
	case tlBreak:
		return 0
	case tlRecompile:
		return 1
	case tlLimit:
		return 2
	case tlStall:
		return 4
	}
	return 3
}

// compileBars shows compile time as bars: per frame when TORCH_TRACE recorded it, per phase when the probe ran.
func (m *Model) compileBars(r *runView, iw int) []string {
	var out []string
	if r.snap != nil && len(r.snap.report.Compiles) > 0 {
		var rows []bar
		for _, c := range r.snap.report.Compiles {
			fn, resume := guard.FoldFunction(c.Function)
			if resume > 0 {
				fn = fmt.Sprintf("%s (resume @%d)", fn, resume)
			}
			label := fmt.Sprintf("%s ×%d", fn, c.Compiles)
			rows = append(rows, bar{label, c.Seconds})
		}
		out = append(out, m.barRows(" Compile time per frame (TORCH_TRACE, all ranks)", rows, iw)...)
	}
	sum := map[string]float64{}
	for _, p := range r.probes {
		for k, v := range p.CompileTimes {
			sum[k] += v
		}
	}
	if len(sum) == 0 {
		if len(out) == 0 {
			return append([]string{""}, m.dimWrap(noCompileTime(r), iw)...)
		}
		return out
	}
	rows := make([]bar, 0, len(sum))
	for k, v := range sum {
		rows = append(rows, bar{k, v})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].v > rows[j].v })
	return append(out, m.barRows(" Compile time per phase (probe, all processes)", rows, iw)...)
}

type bar struct {
	label string
	v     float64
}

// barRows draws labelled horizontal bars scaled to the largest value (rows as given).
func (m *Model) barRows(title string, rows []bar, iw int) []string {
	top := 0.0
	for _, b := range rows {
		top = max(top, b.v)
	}
	out := []string{"", m.th.title.Render(title)}
	barW := max(iw-40, 5)
	for _, b := range rows {
		n := 0
		if top > 0 {
			n = int(b.v / top * float64(barW))
		}
		out = append(out, fmt.Sprintf(" %-26s %7.2fs %s", cells.Cut(b.label, 26), b.v, m.th.bars[3].Render(strings.Repeat("█", max(n, 1)))))
	}
	return out
}

// axisLine labels the start, middle and end of a timeline of tw cells.
func axisLine(tw int, span time.Duration) string {
	b := []byte(strings.Repeat(" ", tw))
	put := func(at int, s string) {
		at = max(min(at, tw-len(s)), 0)
		copy(b[at:], s)
	}
	put(0, "0s")
	mid := fmtDur(span / 2)
	put(tw/2-len(mid)/2, mid)
	put(tw, fmtDur(span))
	return string(b)
}

func fmtDur(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return clock(d)
}

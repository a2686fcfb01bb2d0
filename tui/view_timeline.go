package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/triage"
)

// timeline glyphs, most important first: a cell shows the most important event that fell into it.
var tlGlyph = map[tlKind]string{tlLimit: "▲", tlOther: "✗", tlRecompile: "●", tlBreak: "▪", tlStall: "░"}

var tlOrder = []tlKind{tlLimit, tlOther, tlRecompile, tlBreak, tlStall}

// timelineText draws compile events over the run's wall time, one row per rank group, so a recompile storm, a
// late recompile after warm-up or a straggler rank shows at a glance; then the probe's compile time as bars.
func (m *Model) timelineText(w int) (string, []string) {
	th := m.th
	r := m.cur
	if r == nil || r.snap == nil {
		return "Timeline", []string{" no run yet"}
	}
	s := r.snap
	span := s.span
	for _, e := range s.timeline {
		span = max(span, e.at)
	}
	label := 12
	tw := max(w-4-label, 10)
	var lines []string
	lines = append(lines, " "+th.dim.Render("▪ break  ● recompile  ▲ limit hit  ✗ error/skip  ░ stall (no output)"), "")
	for _, g := range timelineGroups(s) {
		cells := make([]tlKind, tw)
		has := make([]bool, tw)
		counts := make([]int, tw)
		for _, e := range s.timeline {
			if e.kind != tlStall && !g.has(e.rank) {
				continue
			}
			c := cell(e.at, span, tw)
			counts[c]++
			if !has[c] || rankOf(e.kind) < rankOf(cells[c]) {
				cells[c], has[c] = e.kind, true
			}
		}
		var b strings.Builder
		for i := range cells {
			if !has[i] {
				b.WriteString(th.dim.Render("·"))
				continue
			}
			st := th.bars[barIndex(cells[i])]
			if counts[i] > 1 {
				st = st.Bold(true)
			}
			b.WriteString(st.Render(tlGlyph[cells[i]]))
		}
		lines = append(lines, " "+fit(g.label, label)+" "+b.String())
	}
	lines = append(lines, " "+strings.Repeat(" ", label)+" "+th.dim.Render(axisLine(tw, span)))
	if len(s.timeline) == 0 && len(s.all()) > 0 {
		lines = append(lines, "", th.dim.Render(" these records carry no time stamps (TORCH_TRACE files): nothing to place on the timeline"))
	}
	lines = append(lines, "", m.burstLine(s, span))
	lines = append(lines, m.rankCompileBars(r, w-4)...)
	lines = append(lines, m.compileBars(r, w-4)...)
	title := fmt.Sprintf("Timeline · run %d · %s · %s", r.id, fmtDur(span), plural(countEvents(s), "compile event"))
	if m.opt.mode == modeOpen {
		title = fmt.Sprintf("Timeline · %s · %s (log time stamps)", fmtDur(span), plural(countEvents(s), "compile event"))
	}
	return title, lines
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
	if len(s.ranks) <= 8 || len(s.agree.Groups) == 0 {
		for _, rk := range s.ranks {
			out = append(out, tlGroup{label: fmt.Sprintf("rank %d", rk), ranks: []int{rk}})
		}
		return out
	}
	for _, g := range s.agree.Groups {
		out = append(out, tlGroup{label: rankWord(g.Ranks) + " " + triage.RankRanges(g.Ranks), ranks: g.Ranks})
	}
	return out
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

func countEvents(s *snapshot) int {
	n := 0
	for _, e := range s.timeline {
		if e.kind != tlStall {
			n++
		}
	}
	return n
}

// burstLine says when the compile events happened: the last one's time tells a late recompile after warm-up.
func (m *Model) burstLine(s *snapshot, span time.Duration) string {
	var last time.Duration
	n := 0
	for _, e := range s.timeline {
		if e.kind == tlRecompile || e.kind == tlLimit {
			last = max(last, e.at)
			n++
		}
	}
	if n == 0 {
		return " no recompiles on the timeline"
	}
	return fmt.Sprintf(" %s; the last at %s of %s", plural(n, "recompile event"), fmtDur(last), fmtDur(span))
}

// compileBars shows compile time as bars: per frame when TORCH_TRACE recorded it, per phase when the probe ran.
func (m *Model) compileBars(r *runView, iw int) []string {
	var out []string
	if r.snap != nil && len(r.snap.report.Compiles) > 0 {
		var rows []bar
		for _, c := range r.snap.report.Compiles {
			fn, resume := triage.FoldFunction(c.Function)
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
			return []string{"", m.th.dim.Render(" compile time appears here with a TORCH_TRACE (preset trace or distributed) or when the probe ran")}
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
		out = append(out, fmt.Sprintf(" %-26s %7.2fs %s", cut(b.label, 26), b.v, m.th.bars[3].Render(strings.Repeat("█", max(n, 1)))))
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

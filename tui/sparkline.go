package tui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
)

var sparkBlocks = []rune("▁▂▃▄▅▆▇█")

// sparkline draws one cell per value, oldest first, scaled to the largest: 0 is ▁, the largest █, and -1 (no
// value: the run did not log that kind or has no logs) a gap.
func sparkline(vals []int) string {
	top := 0
	for _, v := range vals {
		top = max(top, v)
	}
	var b strings.Builder
	for _, v := range vals {
		switch {
		case v < 0:
			b.WriteByte(' ')
		case top == 0:
			b.WriteRune(sparkBlocks[0])
		default:
			b.WriteRune(sparkBlocks[(v*(len(sparkBlocks)-1)+top-1)/top])
		}
	}
	return b.String()
}

// sparkSeries is "graph breaks ▅▁ → 0": the last n values (older ones cut to "…") and the newest run's value. floors
// (nil: none) marks the runs that did not complete, whose counts are floors: a 0 of theirs is no value (a gap),
// and the newest value is "≥N" when it is one.
func sparkSeries(label string, vals []int, floors []bool, n int, style lipgloss.Style) string {
	floor := func(i int) bool { return i < len(floors) && floors[i] }
	vals = append([]int(nil), vals...)
	for i, v := range vals {
		if v == 0 && floor(i) {
			vals[i] = -1
		}
	}
	cutOff, from := "", 0
	if n > 0 && len(vals) > n {
		from, cutOff = len(vals)-n, "…"
	}
	last := "–" // the newest run's value: none where it logged no such count (as the bringup log's trend)
	if i := len(vals) - 1; i >= 0 && vals[i] >= 0 {
		last = strconv.Itoa(vals[i])
		if floor(i) {
			last = "≥" + last
		}
	}
	vals = vals[from:]
	return label + " " + cutOff + style.Render(sparkline(vals)) + " → " + last
}

// storyHead is the top of the runs view (w cells, h rows of the box): "building the session log…" while a
// build is under way, a failed build's error, and the sparklines of graph breaks and recompiles across the
// stored runs (one line, or two where one is too narrow), then a blank line. Nothing without a run store.
func (m *Model) storyHead(w, h int) []string {
	st, th := &m.storyv, m.th
	if m.storeDir() == "" || h < 5 {
		return nil
	}
	var out []string
	switch {
	case st.building():
		out = append(out, th.dim.Render(" building the session log…"))
	case st.err != "":
		out = append(out, cut(th.warn.Render(" session log: "+clean(st.err)), w))
	}
	if st.s != nil && len(st.s.Runs) > 0 && h >= 7 {
		if label := st.s.TrendLabel(); label != "trend" { // runs of several scripts: no trend, as the bringup log says
			out = append(out, cut(th.dim.Render(" "+label+":"), w))
		}
		breaks, recompiles := st.s.Sparkline()
		fb, fr := st.s.SparkFloors()
		n := max((w-48)/2, 8)
		b := sparkSeries("graph breaks", breaks, fb, n, th.bars[0])
		r := sparkSeries("recompiles", recompiles, fr, n, th.bars[1])
		if one := " " + b + "   " + r; width(one) <= w || h < 12 {
			out = append(out, cut(one, w))
		} else {
			out = append(out, cut(" "+b, w), cut(" "+r, w))
		}
	}
	if len(out) > 0 && h >= 9 {
		out = append(out, "")
	}
	return out
}

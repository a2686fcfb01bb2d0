package tui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// sparkBlocks draw an exact count, sparkFloorBlocks a floor ("≥N": the run did not complete, or some printed of
// a kind not all logged): dotted bars, so a floor never reads as an exact count, and a floor of 0 (⣀) never as
// a gap, which is no count.
var (
	sparkBlocks      = []rune("▁▂▃▄▅▆▇█")
	sparkFloorBlocks = []rune("⣀⣤⣶⣿")
)

// sparkLegend is what the trend's marks mean, in the bringup log's own marks.
const (
	sparkLegendFloor = "dotted ⣿: at least (≥)"
	sparkLegendGap   = "gap: no count (–)"
)

// sparkline draws one cell per value, oldest first, scaled to the largest: 0 is ▁, the largest █, -1 (no count:
// the run did not log that kind or counted nothing) a gap; a value floors marks (nil: none) is a dotted bar of
// about its height, ⣀ for 0, ⣤ to ⣿ above.
func sparkline(vals []int, floors []bool) string {
	top := 0
	for _, v := range vals {
		top = max(top, v)
	}
	var b strings.Builder
	for i, v := range vals {
		if v < 0 {
			b.WriteByte(' ')
			continue
		}
		k := 0 // 0 for 0, 1 to 7 above
		if top > 0 {
			k = (v*(len(sparkBlocks)-1) + top - 1) / top
		}
		if i < len(floors) && floors[i] {
			if k > 0 {
				k = 1 + (k-1)*(len(sparkFloorBlocks)-2)/(len(sparkBlocks)-2)
			}
			b.WriteRune(sparkFloorBlocks[k])
			continue
		}
		b.WriteRune(sparkBlocks[k])
	}
	return b.String()
}

// sparkMarks are the marks a drawn series shows that the legend explains.
type sparkMarks struct{ floor, gap bool }

func (a sparkMarks) or(b sparkMarks) sparkMarks {
	return sparkMarks{a.floor || b.floor, a.gap || b.gap}
}

// legend is "dotted ⣿: at least (≥) · gap: no count (–)", each part only where a series shows its mark.
func (a sparkMarks) legend() string {
	var parts []string
	if a.floor {
		parts = append(parts, sparkLegendFloor)
	}
	if a.gap {
		parts = append(parts, sparkLegendGap)
	}
	return strings.Join(parts, " · ")
}

// sparkValue is one point as the bringup log's trend line words it: "–" (no count), "≥N" (a floor) or "N".
func sparkValue(v int, floor bool) string {
	switch {
	case v < 0:
		return "–"
	case floor:
		return "≥" + strconv.Itoa(v)
	}
	return strconv.Itoa(v)
}

// sparkSeries is "graph breaks ▅⣀▁ → 0": the last n points (older ones cut to "…") and the newest run's value,
// worded as the bringup log's trend line words it; the points are story's (Sparkline, SparkFloors: -1 no count,
// a floor where the log says "≥N"), drawn as they are. It says which marks the drawn points show.
func sparkSeries(label string, vals []int, floors []bool, n int, style lipgloss.Style) (string, sparkMarks) {
	floor := func(i int) bool { return i < len(floors) && floors[i] }
	last := "–"
	if i := len(vals) - 1; i >= 0 {
		last = sparkValue(vals[i], floor(i))
	}
	cutOff, from := "", 0
	if n > 0 && len(vals) > n {
		from, cutOff = len(vals)-n, "…"
	}
	var mk sparkMarks
	for i := from; i < len(vals); i++ {
		mk = mk.or(sparkMarks{floor: vals[i] >= 0 && floor(i), gap: vals[i] < 0})
	}
	var fl []bool
	if len(floors) > from {
		fl = floors[from:]
	}
	return label + " " + cutOff + style.Render(sparkline(vals[from:], fl)) + " → " + last, mk
}

// storyHead is the top of the runs view (w cells, h rows of the box): "building the session log…" while a
// build is under way, a failed build's error, and the sparklines of graph breaks and recompiles across the
// stored runs (one line, or two where one is too narrow) with the legend of their marks (beside them where it
// fits, else below), then a blank line. Nothing without a run store.
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
		out = append(out, cells.Cut(th.warn.Render(" session log: "+clean(st.err)), w))
	}
	if st.s != nil && len(st.s.Runs) > 0 && h >= 7 {
		if label := st.s.TrendLabel(); label != "trend" { // runs of several scripts: no trend, as the bringup log says
			out = append(out, cells.Cut(th.dim.Render(" "+label+":"), w))
		}
		out = append(out, m.trendLines(w, h)...)
	}
	if len(out) > 0 && h >= 9 {
		out = append(out, "")
	}
	return out
}

// trendLines are the two series of the story's trend and their legend, fitted to w cells and h rows.
func (m *Model) trendLines(w, h int) []string {
	st, th := &m.storyv, m.th
	breaks, recompiles := st.s.Sparkline()
	fb, fr := st.s.SparkFloors()
	n := max((w-48)/2, 8)
	b, mb := sparkSeries("graph breaks", breaks, fb, n, th.bars[0])
	r, mr := sparkSeries("recompiles", recompiles, fr, n, th.bars[1])
	var out []string
	if one := " " + b + "   " + r; cells.Width(one) <= w || h < 12 {
		out = []string{one}
	} else {
		out = []string{" " + b, " " + r}
	}
	if legend := mb.or(mr).legend(); legend != "" {
		if last := out[len(out)-1] + "   " + th.dim.Render(legend); cells.Width(last) <= w {
			out[len(out)-1] = last
		} else if h >= 9 {
			out = append(out, th.dim.Render(" "+legend))
		}
	}
	for i := range out {
		out[i] = cells.Cut(out[i], w)
	}
	return out
}

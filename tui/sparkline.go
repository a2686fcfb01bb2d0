package tui

import (
	"github.com/torchtriage/torchtriage/tui/cells"
	"github.com/torchtriage/torchtriage/tui/spark"
)

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
	b, mb := spark.Series("graph breaks", breaks, fb, n, th.bars[0].Render)
	r, mr := spark.Series("recompiles", recompiles, fr, n, th.bars[1].Render)
	var out []string
	if one := " " + b + "   " + r; cells.Width(one) <= w || h < 12 {
		out = []string{one}
	} else {
		out = []string{" " + b, " " + r}
	}
	if legend := mb.Or(mr).Legend(); legend != "" {
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

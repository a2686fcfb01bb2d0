package spark

import (
	"strconv"
	"strings"
)

// Blocks draw an exact count, floorBlocks a floor ("≥N": the run did not complete, or some printed of
// a kind not all logged): dotted bars, so a floor never reads as an exact count, and a floor of 0 (⣀) never as
// a gap, which is no count.
var (
	Blocks      = []rune("▁▂▃▄▅▆▇█")
	floorBlocks = []rune("⣀⣤⣶⣿")
)

// LegendFloor and LegendGap are what the trend's marks mean, in the bringup log's own marks.
const (
	LegendFloor = "dotted ⣿: at least (≥)"
	LegendGap   = "gap: no count (–)"
)

// Line draws one cell per value, oldest first, scaled to the largest: 0 is ▁, the largest █, -1 (no count:
// the run did not log that kind or counted nothing) a gap; a value floors marks (nil: none) is a dotted bar of
// about its height, ⣀ for 0, ⣤ to ⣿ above.
func Line(vals []int, floors []bool) string {
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
			k = (v*(len(Blocks)-1) + top - 1) / top
		}
		if i < len(floors) && floors[i] {
			if k > 0 {
				k = 1 + (k-1)*(len(floorBlocks)-2)/(len(Blocks)-2)
			}
			b.WriteRune(floorBlocks[k])
			continue
		}
		b.WriteRune(Blocks[k])
	}
	return b.String()
}

// Marks are the marks a drawn series shows that the legend explains.
type Marks struct{ Floor, Gap bool }

// Or is the marks of both.
func (a Marks) Or(b Marks) Marks {
	return Marks{a.Floor || b.Floor, a.Gap || b.Gap}
}

// Legend is "dotted ⣿: at least (≥) · gap: no count (–)", each part only where a series shows its mark.
func (a Marks) Legend() string {
	var parts []string
	if a.Floor {
		parts = append(parts, LegendFloor)
	}
	if a.Gap {
		parts = append(parts, LegendGap)
	}
	return strings.Join(parts, " · ")
}

// Value is one point as the bringup log's trend line words it: "–" (no count), "≥N" (a floor) or "N".
func Value(v int, floor bool) string {
	switch {
	case v < 0:
		return "–"
	case floor:
		return "≥" + strconv.Itoa(v)
	}
	return strconv.Itoa(v)
}

// Series is "graph breaks ▅⣀▁ → 0": the last n points (older ones cut to "…") and the newest run's value,
// worded as the bringup log's trend line words it; the points are story's (Sparkline, SparkFloors: -1 no count,
// a floor where the log says "≥N"), drawn as they are. It says which marks the drawn points show.
func Series(label string, vals []int, floors []bool, n int, render func(...string) string) (string, Marks) {
	floor := func(i int) bool { return i < len(floors) && floors[i] }
	last := "–"
	if i := len(vals) - 1; i >= 0 {
		last = Value(vals[i], floor(i))
	}
	cutOff, from := "", 0
	if n > 0 && len(vals) > n {
		from, cutOff = len(vals)-n, "…"
	}
	var mk Marks
	for i := from; i < len(vals); i++ {
		mk = mk.Or(Marks{Floor: vals[i] >= 0 && floor(i), Gap: vals[i] < 0})
	}
	var fl []bool
	if len(floors) > from {
		fl = floors[from:]
	}
	return label + " " + cutOff + render(Line(vals[from:], fl)) + " → " + last, mk
}

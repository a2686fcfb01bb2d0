package spark

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	for _, c := range []struct {
		in     []int
		floors []bool
		want   string
	}{
		{[]int{1, 0, -1}, nil, "█▁ "}, {[]int{0, 0}, nil, "▁▁"}, {[]int{3, 1, 0, -1, 6}, nil, "▅▃▁ █"}, {[]int{-1, -1}, nil, "  "},
		{nil, nil, ""}, {[]int{0, 0, -1}, []bool{true, false, false}, "⣀▁ "}, {[]int{8, 1, 4, 8}, []bool{false, true, true, true}, "█⣤⣶⣿"},
	} {
		if got := Line(c.in, c.floors); got != c.want {
			t.Errorf("Line(%v, %v) = %q, want %q", c.in, c.floors, got, c.want)
		}
	}
	var many []int
	for i := 1; i <= 20; i++ {
		many = append(many, i)
	}
	plainSt := func(s ...string) string { return strings.Join(s, "") }
	if got, mk := Series("breaks", many, nil, 8, plainSt); got != "breaks …▆▆▇▇▇███ → 20" || mk.Legend() != "" {
		t.Errorf("a long series keeps its newest values: %q %q", got, mk.Legend())
	}
	// the newest value is the newest run's, "–" where it has none, as the bringup log's trend says (it skipped
	// the gap and showed an older run's 2 as the latest)
	if got, mk := Series("breaks", []int{2, -1}, nil, 8, plainSt); got != "breaks █  → –" || mk.Legend() != LegendGap {
		t.Errorf("the newest value of a gap: %q %q", got, mk.Legend())
	}
	// a run that did not complete counted only what it reached: its counts are floors, drawn dotted, a floor of 0
	// too (⣀, not a gap: the log says "≥0", not "–"), and the newest value reads as the log's "≥1"; it drew the
	// floor of 0 as a gap and the floor of 1 as an exact bar
	if got, mk := Series("breaks", []int{2, 0, 1}, []bool{false, true, true}, 8, plainSt); got != "breaks █⣀⣶ → ≥1" || mk.Legend() != LegendFloor {
		t.Errorf("stopped runs: %q %q", got, mk.Legend())
	}
	if got, _ := Series("breaks", []int{2, 0}, []bool{false, true}, 8, plainSt); got != "breaks █⣀ → ≥0" {
		t.Errorf("a newest floor of 0 reads as the log's ≥0: %q", got)
	}
	// the legend names the marks the drawn points show, not those cut off
	if _, mk := Series("breaks", []int{0, -1, 1, 2}, []bool{true}, 2, plainSt); mk.Legend() != "" {
		t.Errorf("a legend of marks cut off: %q", mk.Legend())
	}
}

package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/steady"
	"github.com/torchtriage/torchtriage/tui/cells"
)

// stepLanes draws the compiles after warm-up against the steps, one lane per rank group (the time lanes' groups),
// the warm-up shaded: the same steady state report's "Steady state:" line says (Analysis.AfterWarmup). Nothing
// when the probe kept no steps; a line saying why when no step was seen.
func (m *Model) stepLanes(s *snapshot, w int) []string {
	if s == nil || s.analysis == nil || s.analysis.AfterWarmup == nil {
		return nil
	}
	aw, th := s.analysis.AfterWarmup, m.th
	lines := []string{"", " " + cells.Fit("Steps · "+aw.Summary(), w-4)}
	if why := aw.NotJudged(); why != "" {
		return append(lines, " "+th.dim.Render(cells.Fit(why, w-4)))
	}
	if aw.StepSource == steady.StepsLog { // a serving log's compiles: no step to draw them at (the line says them)
		return lines
	}
	last := max(aw.StepsSeen, aw.WarmupSteps)
	for _, e := range aw.Events {
		last = max(last, e.Step)
	}
	label := 12
	tw := max(w-4-label, 10)
	at := func(step int) int { return min(step*(tw-1)/max(last, 1), tw-1) }
	lines = append(lines, " "+th.dim.Render(fmt.Sprintf("▒ warm-up (%d %ss)  ● compile after warm-up", aw.WarmupSteps, aw.Unit())))
	for _, g := range timelineGroups(s) {
		bins := make([]int, tw) // compiles after warm-up per cell
		for _, e := range aw.Events {
			if g.has(e.Rank) && e.Step >= 0 { // (a log-sourced event has no step)
				bins[at(e.Step)]++
			}
		}
		warm := at(aw.WarmupSteps) // cells before it are warm-up only
		var b strings.Builder
		for i, n := range bins {
			switch {
			case n > 0:
				st := th.bars[barIndex(tlRecompile)]
				if n > 1 {
					st = st.Bold(true)
				}
				b.WriteString(st.Render("●"))
			case i < warm:
				b.WriteString(th.dim.Render("▒"))
			default:
				b.WriteString(th.dim.Render("·"))
			}
		}
		lines = append(lines, " "+cells.Fit(g.label, label)+" "+b.String())
	}
	return append(lines, " "+strings.Repeat(" ", label)+" "+th.dim.Render(stepAxis(tw, last, aw)))
}

// stepAxis labels the first step, the middle and the last: "0 … 20 … 40" (seconds: "0s … 40s").
func stepAxis(tw, last int, aw *steady.AfterWarmup) string {
	unit := ""
	if aw.Unit() == "s" {
		unit = "s"
	}
	l, mid, r := "0"+unit, strconv.Itoa(last/2)+unit, strconv.Itoa(last)+unit
	gap := max(tw-len(l)-len(mid)-len(r), 2)
	return l + strings.Repeat(" ", gap/2) + mid + strings.Repeat(" ", gap-gap/2) + r
}

package compare

import (
	"fmt"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Coverage beside breaks: a B that breaks more while capturing more (2.15's nested graph breaks resume inside
// frames) is not the regression its break count alone would call it.

// CoverageChange is each side's capture (report.Coverage, from its probes) beside its distinct graph breaks.
type CoverageChange struct {
	A            *report.Coverage `json:"a"` // null: that side has no probe counters
	B            *report.Coverage `json:"b"`
	GraphBreaksA int              `json:"graph_breaks_a"`
	GraphBreaksB int              `json:"graph_breaks_b"`
	// MoreCaptured: B captured more calls than A and fell back to eager no more often (report.MoreCaptured)
	MoreCaptured bool `json:"more_captured"`
}

// coverageOf is the change of capture between two analyses; nil when neither side has probe counters.
func coverageOf(a, b *triage.Analysis) *CoverageChange {
	if a.Coverage == nil && b.Coverage == nil {
		return nil
	}
	return &CoverageChange{A: a.Coverage, B: b.Coverage, GraphBreaksA: a.Report.Counts.GraphBreaks,
		GraphBreaksB: b.Report.Counts.GraphBreaks, MoreCaptured: report.MoreCaptured(a.Coverage, b.Coverage)}
}

// Words: "graph breaks 2 → 19 · calls captured 2 → 84 · graphs 1 → 19 · fallbacks to eager 0 → 0 (breaks up,
// coverage up)"; a side without counters is "–". Calls captured are summed over every compile, recompiles too.
func (c *CoverageChange) Words() string {
	num := func(s *report.Coverage, f func(*report.Coverage) int) string {
		if s == nil {
			return "–"
		}
		return fmt.Sprint(f(s))
	}
	pair := func(name string, f func(*report.Coverage) int) string {
		return fmt.Sprintf("%s %s → %s", name, num(c.A, f), num(c.B, f))
	}
	out := fmt.Sprintf("graph breaks %d → %d · %s · %s · %s", c.GraphBreaksA, c.GraphBreaksB,
		pair("calls captured", func(s *report.Coverage) int { return s.CallsCaptured }),
		pair("graphs", func(s *report.Coverage) int { return s.UniqueGraphs }),
		pair("fallbacks to eager", func(s *report.Coverage) int { return s.FallbacksToEager }))
	if c.MoreCaptured && c.GraphBreaksB > c.GraphBreaksA {
		out += " (breaks up, coverage up)"
	}
	return out
}

// Changed says whether the capture differs where it tells something beside the break count: both sides counted,
// and the graph breaks or the fallbacks to eager moved (calls captured alone move with every recompile, each
// compile capturing its calls again: the Coverage line shows them).
func (c *CoverageChange) Changed() bool {
	return c.A != nil && c.B != nil && (c.GraphBreaksA != c.GraphBreaksB || c.A.FallbacksToEager != c.B.FallbacksToEager)
}

// Verdict is the change in the compare verdict: "breaks up, coverage up (calls captured 2 → 84)", "coverage down
// (calls captured 84 → 2)", "capture changed (…)".
func (c *CoverageChange) Verdict() string {
	calls := fmt.Sprintf("calls captured %d → %d, fallbacks to eager %d → %d", c.A.CallsCaptured, c.B.CallsCaptured,
		c.A.FallbacksToEager, c.B.FallbacksToEager)
	switch {
	case c.MoreCaptured && c.GraphBreaksB > c.GraphBreaksA:
		return "breaks up, coverage up (" + calls + ")"
	case c.MoreCaptured:
		return "coverage up (" + calls + ")"
	case c.B.CallsCaptured < c.A.CallsCaptured:
		return "coverage down (" + calls + ")"
	}
	return "capture changed (" + calls + ")"
}

package tui

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// The words of the Ranks view and the ranks strip: why a count is no count, agreements, why there is no probe
// data.

// logging is what is known of the TORCH_LOGS names of a count that is no evidence: off where the run's TORCH_LOGS
// is known, unknown for logs alone (the Ranks view's "–" legend, the strip's "breaks unknown").
func (s *snapshot) logging() report.Logging {
	if s == nil || s.analysis == nil {
		return report.LoggingUnknown
	}
	return s.analysis.Evidence.LoggingOf(false)
}

// countMark fits a count into two cells.
func countMark(n int) string {
	if n > 99 {
		return "++"
	}
	return fmt.Sprint(n)
}

func rankWord(ranks []int) string {
	if len(ranks) == 1 {
		return "rank"
	}
	return "ranks"
}

// shortAgreement is "rank 0 +2 extra" per group that differs from the reference.
func shortAgreement(a ranks.RankAgreement) string {
	var parts []string
	for _, g := range a.Groups[min(1, len(a.Groups)):] {
		p := rankWord(g.Ranks) + " " + text.RankRanges(g.Ranks)
		if len(g.Extra) > 0 {
			p += fmt.Sprintf(" +%d extra", len(g.Extra))
		}
		if len(g.Missing) > 0 {
			p += fmt.Sprintf(" −%d missing", len(g.Missing))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return a.Summary
	}
	return strings.Join(parts, "; ")
}

// noProbeText says why a run shows no probe config: triage's words of what the run directory holds
// (Analysis.NoConfig), or the demo's.
func (m *Model) noProbeText(r *runView) string {
	switch {
	case m.opt.mode == modeDemo:
		return "no config recorded: the demo replays a recording, with no probe"
	case r.snap != nil && r.snap.analysis != nil && r.snap.analysis.NoConfig != "":
		return r.snap.analysis.NoConfig
	case !r.done:
		return "no config recorded yet: the probe writes it as each torch process exits (unless --no-probe)"
	}
	return "no config recorded"
}

// soFarForms are the strip's words of ranks that differ so far (triage's SoFar: not earned, not compared), longest
// first: "differ so far: rank 0 +2 extra; not compared yet (R)" while the run goes on (Live), else "differ where
// the log ends: …" with why they are not compared.
func soFarForms(th theme, a ranks.RankAgreement) []string {
	why, words := "not compared yet", "differ so far"
	if !a.Live { // a run that ended before it finished (or breaks not logged): where its log ends
		why, words = "not compared: "+a.NotCompared, "differ where the log ends"
	}
	d := th.warn.Render(words)
	g := a
	g.Groups = a.SoFar // which ranks have more so far: "rank 0 +2 extra"
	return []string{th.warn.Render(words+": "+shortAgreement(g)) + th.dim.Render("; "+why+" (R)"),
		d + th.dim.Render(", "+why+" (R)"), d + th.dim.Render(", not compared (R)"), d + th.dim.Render(" (R)")}
}

// groupLines are a group's items in the Ranks view, and where each of its ranks first diverges; soFar: of a run
// still running, not earned yet ("extra so far: …").
func groupLines(g ranks.RankGroup, soFar bool) []string {
	var lines []string
	extra, missing, first := "   extra: ", "   missing: ", "   rank %d first diverges at compile [%s]"
	if soFar {
		extra, missing, first = "   extra so far: ", "   missing so far: ", "   rank %d first diverges at compile [%s] (so far)"
	}
	for _, e := range g.Extra {
		lines = append(lines, extra+e)
	}
	for _, e := range g.Missing {
		lines = append(lines, missing+e)
	}
	for _, rk := range g.Ranks {
		if c, ok := g.FirstDivergent[rk]; ok {
			lines = append(lines, fmt.Sprintf(first, rk, c))
		}
	}
	return lines
}

// compilesForms are the strip's words of ranks whose probes recorded different compiles (triage's Compiles: what
// each had done when the run ended, or so far; no difference earned), longest first: "compiles differ when
// stopped: rank 0: 1, rank 1: 2; not compared (R)" (compiles per group: each counted as it ended, done or failed), then shorter; of a completed run
// whose ranks agree, "agree; compiles differ (R)".
func compilesForms(th theme, a ranks.RankAgreement) []string {
	c := a.Compiles
	when := map[string]string{ranks.CompilesWhenStopped: " when stopped", ranks.CompilesWhenEnded: " when it ended",
		ranks.CompilesWhenSoFar: " so far", ranks.CompilesWhenLast: " as last recorded"}[c.When]
	var parts []string
	for i, g := range c.Groups {
		if i == 3 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s: %d", rankWord(g.Ranks), text.RankRanges(g.Ranks), g.Compiles))
	}
	words := "compiles differ" + when
	why, lead := "; not compared (R)", ""
	switch {
	case a.Agree:
		why, lead = " (R)", th.good.Render("agree")+th.dim.Render("; ")
	case a.NotCompared == "":
		why = " (R)"
	}
	return []string{lead + th.warn.Render(words+": "+strings.Join(parts, ", ")) + th.dim.Render(why),
		lead + th.warn.Render(words) + th.dim.Render(why), lead + th.warn.Render(words) + th.dim.Render(" (R)"),
		lead + th.warn.Render("compiles differ") + th.dim.Render(" (R)")}
}

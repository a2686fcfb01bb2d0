package compare

import (
	"fmt"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
)

// The steady state beside the counts: what compiled after warm-up on each side (steady.AfterWarmup, by the probe's
// step clock or a serving framework's own lines) and what a serving framework states of its compile (vLLM's
// "torch.compile took X s in total", its AOT loads and load failures). Two serving logs that log no graph breaks
// differ there, or nowhere.

// SteadyChange is each side's steady state and serving lines; nil when neither side has either.
type SteadyChange struct {
	A *SteadySide `json:"a"` // null: that side has neither a warm-up clock nor serving lines
	B *SteadySide `json:"b"`
	// FrameworkCompile is the compile time the serving framework states (report.Serving.CompileS), A → B, where a
	// side states it
	FrameworkCompile *Delta `json:"framework_compile,omitempty"`
}

// SteadySide is one side's steady state.
type SteadySide struct {
	// Judged: the side's warm-up ended by its clock (steps, a step marker, a serving line that ends warm-up);
	// NotJudged says why not ("" when judged). AfterWarmup counts the compiles after it, judged or not.
	Judged      bool   `json:"judged"`
	NotJudged   string `json:"not_judged,omitempty"`
	AfterWarmup int    `json:"after_warmup"`
	// Serving is what the serving framework's lines say, in one line (report.Serving.Words); "" without them
	Serving string `json:"serving,omitempty"`
	// Start is how the framework started (report.Serving.Start): warm, cold, or warm gone cold; "" unknown
	Start string `json:"start,omitempty"`
}

func steadySide(a *triage.Analysis) *SteadySide {
	aw, sv := a.AfterWarmup, a.Report.Serving
	if aw == nil && sv == nil {
		return nil
	}
	s := &SteadySide{Serving: sv.Words(), Start: sv.Start()}
	if aw != nil {
		s.NotJudged = aw.NotJudged()
		if s.NotJudged == "" && !aw.Reached() {
			s.NotJudged = fmt.Sprintf("the run never got past its %d-step warm-up", aw.WarmupSteps)
		}
		s.Judged, s.AfterWarmup = s.NotJudged == "", len(aw.Events)
	} else {
		s.NotJudged = "no warm-up clock"
	}
	return s
}

// steadyOf compares the two sides' steady states; nil when neither has one.
func steadyOf(a, b *triage.Analysis) *SteadyChange {
	sa, sb := steadySide(a), steadySide(b)
	if sa == nil && sb == nil {
		return nil
	}
	c := &SteadyChange{A: sa, B: sb}
	stated := func(an *triage.Analysis) *float64 {
		if sv := an.Report.Serving; sv != nil && sv.CompileS >= 0 {
			return &sv.CompileS
		}
		return nil
	}
	if fa, fb := stated(a), stated(b); fa != nil || fb != nil {
		d := delta("framework compile", fa, fb, report.DefaultTolerance)
		c.FrameworkCompile = &d
	}
	return c
}

// bothJudged says both sides' warm-up ended, so their compiles after it compare.
func (c *SteadyChange) bothJudged() bool {
	return c.A != nil && c.B != nil && c.A.Judged && c.B.Judged
}

// Words: "compiles after warm-up 0 → 2 · vLLM's stated compile time 1.5 s → 264.63 s"; a side without a judged
// warm-up is "–" with why on the lines the text prints below.
func (c *SteadyChange) Words() string {
	count := func(s *SteadySide) string {
		if s == nil || !s.Judged {
			return "–"
		}
		return fmt.Sprint(s.AfterWarmup)
	}
	out := fmt.Sprintf("compiles after warm-up %s → %s", count(c.A), count(c.B))
	if d := c.FrameworkCompile; d != nil {
		out += " · the framework's stated compile time " + orDash(secsOpt(d.A)) + " → " + orDash(secsOpt(d.B))
	}
	return out
}

// Changed says whether the steady state differs where both sides show it: both judged and their compiles after
// warm-up differ, or the framework's stated compile time moved beyond noise.
func (c *SteadyChange) Changed() bool {
	if c.bothJudged() && c.A.AfterWarmup != c.B.AfterWarmup {
		return true
	}
	d := c.FrameworkCompile
	return d != nil && d.DeltaS != nil && d.Big
}

// Verdict is the change in the compare verdict: "compiles after warm-up 0 → 2", "the framework's stated compile
// time +263.1 s (1.5 s → 264.6 s)".
func (c *SteadyChange) Verdict() []string {
	var parts []string
	if c.bothJudged() && c.A.AfterWarmup != c.B.AfterWarmup {
		parts = append(parts, fmt.Sprintf("compiles after warm-up %d → %d", c.A.AfterWarmup, c.B.AfterWarmup))
	}
	if d := c.FrameworkCompile; d != nil && d.DeltaS != nil && d.Big {
		p := fmt.Sprintf("the framework's stated compile time %s (%.1f s → %.1f s)", signed(*d.DeltaS), *d.A, *d.B)
		if c.A != nil && c.B != nil && c.A.Start != c.B.Start && c.B.Start != "" { // the start that explains it
			p += ": B " + c.B.Start
			if c.A.Start != "" {
				p += ", A " + c.A.Start
			}
		}
		parts = append(parts, p)
	}
	return parts
}

// ServingLines are each side's serving lines in words: "A serving log: torch.compile took 1.5 s in total …".
func (c *SteadyChange) ServingLines() []string {
	var out []string
	for _, x := range []struct {
		name string
		s    *SteadySide
	}{{"A", c.A}, {"B", c.B}} {
		if x.s != nil && x.s.Serving != "" {
			out = append(out, x.name+" serving log: "+x.s.Serving)
		}
	}
	return out
}

// shown says the steady state is worth a line: a side's warm-up was judged, or a side has serving lines (runs
// without a step clock on either side say nothing of it).
func (c *SteadyChange) shown() bool {
	judged := func(s *SteadySide) bool { return s != nil && (s.Judged || s.Serving != "") }
	return judged(c.A) || judged(c.B)
}

// notCompared says what of the steady state one side could not show where the other could: "compiles after
// warm-up: A has no warm-up clock (…)"; nothing when both or neither show it.
func (c *SteadyChange) notCompared() []string {
	var out []string
	if c.bothJudged() || !c.shown() {
		return nil
	}
	for _, x := range []struct {
		name string
		s    *SteadySide
	}{{"A", c.A}, {"B", c.B}} {
		switch {
		case x.s == nil:
			out = append(out, "compiles after warm-up: "+x.name+" has no warm-up clock (no probe steps, no step marker, no serving lines)")
		case !x.s.Judged:
			out = append(out, "compiles after warm-up: "+x.name+": "+x.s.NotJudged)
		}
	}
	return out
}

func secsOpt(x *float64) string {
	if x == nil {
		return ""
	}
	return fmt.Sprintf("%.1f s", *x)
}

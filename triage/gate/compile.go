package gate

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
)

// The compile-time rules of the gate: total compile time, skew between ranks, and compile time per frame
// against the baseline (within a tolerance).

// BaselineFrame is one frame compile's time in a baseline.
type BaselineFrame struct {
	report.FrameRef
	TotalS  float64       `json:"total_s"`
	ByPhase report.Phases `json:"by_phase"`
	// Cache is the frame's cache state when the baseline was written (warm | cold | partial | bypass; "" unknown):
	// a cold run against a warm baseline grows by its cache misses, which the failure names
	Cache string `json:"cache,omitempty"`
}

// baselineFloorS: a frame that grew by less than this is not reported, whatever the ratio (µs noise).
const baselineFloorS = 0.1

func BaselineFrames(c *report.CompileReport) []BaselineFrame {
	if c == nil {
		return nil
	}
	out := make([]BaselineFrame, 0, len(c.Frames))
	for _, f := range c.Frames {
		out = append(out, BaselineFrame{FrameRef: f.FrameRef, TotalS: f.TotalS, ByPhase: f.ByPhase, Cache: f.Cache})
	}
	return out
}

// secondsWord words a limit: "1.5 s", or under 0.1 s as many digits as it takes ("0.0001 s", not "0.0 s").
func SecondsWord(d time.Duration) string {
	if d > 0 && d < 100*time.Millisecond {
		return strconv.FormatFloat(d.Seconds(), 'g', -1, 64) + " s"
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// compileRules applies --max-compile-time, --max-compile-skew and the baseline's compile times.
func (res *Result) compileRules(a *triage.Analysis, o Options) {
	c := a.Report.Compile
	if o.MaxCompileTime > 0 {
		rule := "--max-compile-time=" + SecondsWord(o.MaxCompileTime)
		alone := o.single()
		alone.MaxCompileTime = o.MaxCompileTime
		res.rule(a, rule, alone)
		total, source, ok := CompileTotal(a.Report)
		if ok {
			res.Counts.CompileTimeS, res.Counts.CompileTimeSource = &total, source
		}
		switch {
		case !ok:
			res.Notes = append(res.Notes, rule+": no compile time in the input (run with TORCH_TRACE or the probe)")
		case total > o.MaxCompileTime.Seconds() && source != "":
			res.Failures = append(res.Failures, Failure{Rule: rule, Message: fmt.Sprintf("compile time %.1f s > %s (%s)",
				total, SecondsWord(o.MaxCompileTime), source)})
		case total > o.MaxCompileTime.Seconds():
			res.Failures = append(res.Failures, Failure{Rule: rule, Message: fmt.Sprintf("compile time %.1f s > %s%s",
				total, SecondsWord(o.MaxCompileTime), slowestFrames(c))})
		}
	}
	if o.MaxCompileSkew > 0 {
		rule := "--max-compile-skew=" + SecondsWord(o.MaxCompileSkew)
		alone := o.single()
		alone.MaxCompileSkew = o.MaxCompileSkew
		res.rule(a, rule, alone)
		if slow, fast, ok := c.SlowFast(); ok {
			rs := c.Ranks()
			skew := *rs[slow].TotalS - *rs[fast].TotalS
			res.Counts.CompileSkewS = &skew
			if skew > o.MaxCompileSkew.Seconds() {
				res.Failures = append(res.Failures, Failure{Rule: rule, Message: fmt.Sprintf(
					"compile skew %.1f s > %s: rank %d compiled %.1f s, rank %d %.1f s", skew, SecondsWord(o.MaxCompileSkew),
					slow, *rs[slow].TotalS, fast, *rs[fast].TotalS)})
			}
		} else {
			res.Notes = append(res.Notes, rule+": fewer than two ranks with compile time")
		}
	}
	if o.Baseline != nil && len(o.Baseline.Compile) > 0 {
		res.BaselineCompile(c, o)
	}
}

// CompileTotal is the total compile time --max-compile-time judges: the one measured (TORCH_TRACE or the probe),
// else the one a serving framework states in its own log (vLLM's "torch.compile took X s in total", summed over its
// processes), with source naming it; ok is false when the input has neither.
func CompileTotal(r *report.Report) (total float64, source string, ok bool) {
	if c := r.Compile; c != nil && c.TotalS != nil {
		return *c.TotalS, "", true
	}
	if sv := r.Serving; sv != nil && sv.CompileS >= 0 {
		return sv.CompileS, "vLLM's own figure, its \"torch.compile took … in total\"", true
	}
	return 0, "", false
}

func slowestFrames(c *report.CompileReport) string {
	fs := append([]*report.FrameTime(nil), c.Frames...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].TotalS > fs[j].TotalS })
	var parts []string
	for i, f := range fs {
		if i == 3 {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %.1f s", f.Label(), f.TotalS))
	}
	if len(parts) == 0 {
		return ""
	}
	return " · slowest: " + strings.Join(parts, ", ")
}

// baselineCompile fails on frames whose compile time grew beyond the tolerance, naming the phases that grew.
func (res *Result) BaselineCompile(c *report.CompileReport, o Options) {
	tol := report.DefaultTolerance
	if o.CompileTolerance != nil {
		tol = *o.CompileTolerance
	}
	rule := fmt.Sprintf("--baseline (compile time, tolerance %.0f%%)", tol*100)
	base := map[string]BaselineFrame{}
	for _, f := range o.Baseline.Compile {
		base[f.Key()] = f
	}
	for _, now := range BaselineFrames(c) {
		was, ok := base[now.Key()]
		if !ok {
			if now.TotalS > baselineFloorS {
				res.Failures = append(res.Failures, Failure{Rule: rule, File: now.File, Line: now.Line,
					Message: fmt.Sprintf("new frame compile %s: %.1f s, not in the baseline", now.Label(), now.TotalS)})
			}
			continue
		}
		grew := now.TotalS - was.TotalS
		if grew <= baselineFloorS || now.TotalS <= was.TotalS*(1+tol) {
			continue
		}
		var phases []string
		for _, p := range report.PhaseNames {
			x, y := was.ByPhase.Get(p), now.ByPhase.Get(p)
			if y != nil && (x == nil || *y-*x > baselineFloorS && *y > *x*(1+tol)) {
				from := 0.0
				if x != nil {
					from = *x
				}
				phases = append(phases, fmt.Sprintf("%s +%.1f s", p, *y-from))
			}
		}
		msg := fmt.Sprintf("compile time of %s grew %.1f s → %.1f s (+%.0f%%)", now.Label(), was.TotalS, now.TotalS, grew/was.TotalS*100)
		if len(phases) > 0 {
			msg += ": " + strings.Join(phases, ", ")
		}
		if was.Cache == "warm" && now.Cache != "" && now.Cache != "warm" { // not the same start: say so
			msg += fmt.Sprintf("; the baseline's run hit the cache (warm), this one missed it (%s): a cold start, not necessarily a regression", now.Cache)
		}
		res.Failures = append(res.Failures, Failure{Rule: rule, Message: msg, File: now.File, Line: now.Line})
	}
}

package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// The compile-time and cache half of compare, and the verdict.

type frameMatch struct {
	rank          int
	function, cid string
}

func (res *Result) compile(ca, cb *report.CompileReport) {
	get := func(c *report.CompileReport) (*float64, report.Phases) {
		if c == nil {
			return nil, report.Phases{}
		}
		return c.TotalS, c.ByPhase
	}
	ta, pa := get(ca)
	tb, pb := get(cb)
	d := delta("compile", ta, tb, report.DefaultTolerance)
	res.Compile = &d
	for _, name := range report.PhaseNames {
		if pa.Get(name) != nil || pb.Get(name) != nil {
			res.Phases = append(res.Phases, delta(name, pa.Get(name), pb.Get(name), report.DefaultTolerance))
		}
	}
	sortByContribution(res.Phases)
	frames := map[frameMatch][2]*report.FrameTime{}
	var order []frameMatch
	for side, c := range []*report.CompileReport{ca, cb} {
		if c == nil {
			continue
		}
		for _, f := range c.Frames {
			k := frameMatch{f.RankID, f.Function, f.CompileID}
			pair, ok := frames[k]
			if !ok {
				order = append(order, k)
			}
			pair[side] = f
			frames[k] = pair
		}
	}
	for _, k := range order {
		pair := frames[k]
		var a, b *float64
		if pair[0] != nil {
			a = &pair[0].TotalS
		}
		if pair[1] != nil {
			b = &pair[1].TotalS
		}
		fd := delta(fmt.Sprintf("`%s` [%s]", k.function, k.cid), a, b, report.DefaultTolerance)
		if k.rank >= 0 {
			fd.Rank = &k.rank
		}
		if pair[0] != nil {
			fd.CacheA = pair[0].Cache
		}
		if pair[1] != nil {
			fd.CacheB = pair[1].Cache
		}
		res.Frames = append(res.Frames, fd)
	}
	sortByContribution(res.Frames)
	ra, rb := ca.Ranks(), cb.Ranks()
	ranks := map[int]bool{}
	for r := range ra {
		ranks[r] = true
	}
	for r := range rb {
		ranks[r] = true
	}
	for _, r := range report.SortedInts(ranks) {
		var a, b *float64
		if x := ra[r]; x != nil {
			a = x.TotalS
		}
		if y := rb[r]; y != nil {
			b = y.TotalS
		}
		what := fmt.Sprintf("rank %d", r)
		if r < 0 { // a process without rank: no "rank -1"
			what = "process"
		}
		rd := delta(what, a, b, report.DefaultTolerance)
		if r >= 0 {
			rd.Rank = &r
		}
		res.Ranks = append(res.Ranks, rd)
	}
	res.CompareCaches(ca, cb)
}

func magnitude(d Delta) float64 {
	switch {
	case d.DeltaS != nil:
		return math.Abs(*d.DeltaS)
	case d.A != nil:
		return *d.A
	case d.B != nil:
		return *d.B
	}
	return 0
}

func sortByContribution(ds []Delta) {
	sort.SliceStable(ds, func(i, j int) bool { return magnitude(ds[i]) > magnitude(ds[j]) })
}

func signed(v float64) string { return fmt.Sprintf("%+.1f s", v) }

// versionWords words the version changes, torch's first: it says the most of a change in compile.
func versionWords(vs []Change) []string {
	var out []string
	for _, v := range vs {
		if v.Key == "version.torch" {
			out = append([]string{v.String()}, out...)
		} else {
			out = append(out, v.String())
		}
	}
	return out
}

// verdict words the comparison on one line, biggest contribution first; same is true when nothing differs.
func (res *Result) DecideVerdict() (string, bool) {
	var parts []string
	headline := false // the compile-time change leads the parts
	if d := res.Compile; d != nil && d.Big && d.DeltaS != nil {
		head := fmt.Sprintf("%s compile (%.1f s → %.1f s)", signed(*d.DeltaS), *d.A, *d.B)
		var lead *Delta // the phase that changed most, known on both sides (not one a cache hit splits otherwise)
		for i := range res.Phases {
			p := &res.Phases[i]
			// a phase that moved the way the total did: a fall does not explain a rise
			if p.DeltaS != nil && p.Big && !(res.PhaseNote != "" && (p.What == "aot" || p.What == "inductor")) &&
				(*p.DeltaS > 0) == (*d.DeltaS > 0) {
				lead = p
				break
			}
		}
		phase := lead != nil
		// the frame that changed most, where both sides timed it: its own change (a phase's is the sum over frames)
		frame := len(res.Frames) > 0 && res.Frames[0].Big && res.Frames[0].DeltaS != nil
		where := ""
		if frame {
			where = res.Frames[0].What
			if r := res.Frames[0].Rank; r != nil && len(res.Ranks) > 1 {
				where += fmt.Sprintf(" on rank %d", *r)
			}
		}
		switch {
		case phase && frame:
			head += ": " + lead.What + " " + signed(*lead.DeltaS) + "; most in " + where + " " + signed(*res.Frames[0].DeltaS)
		case phase:
			head += ": " + lead.What + " " + signed(*lead.DeltaS)
		case frame: // no phase known on both sides: where, not why
			head += " in " + where + " " + signed(*res.Frames[0].DeltaS)
		}
		parts, headline = append(parts, head), true
	}
	named := map[string]bool{}
	for _, c := range res.Caches {
		if !c.Changed() {
			continue
		}
		cause := res.CacheCause(c)
		parts = append(parts, fmt.Sprintf("%s %s (%s)", findings.CacheWords[c.Cache], c.Change(), cause))
		for _, s := range res.Settings {
			if s.Cache && strings.Contains(cause, s.String()) {
				for _, t := range res.Settings { // the env variable and the config it sets are one cause
					named[t.Key] = named[t.Key] || t.Cache
				}
			}
		}
	}
	var knobs []string
	for _, s := range res.Settings {
		if s.Knob && !named[s.Key] {
			knobs = append(knobs, s.String())
		}
	}
	if len(knobs) > 0 {
		parts = append(parts, "settings differ: "+strings.Join(findings.CapList(knobs, 3), ", "))
	}
	switch {
	case headline && len(parts) == 1 && len(knobs)+len(res.Versions) == 0 && len(res.settingsWhy) > 0:
		parts = append(parts, "caches unchanged; versions and settings not compared ("+strings.Join(res.settingsWhy, "; ")+")")
	case headline && len(parts) == 1 && len(knobs)+len(res.Versions) == 0: // only the compile time changed
		parts = append(parts, "caches, versions and settings unchanged: machine load or noise? rerun both")
	}
	if len(res.Versions) > 0 && !strings.Contains(strings.Join(parts, " "), "torch version") {
		parts = append(parts, "versions differ: "+strings.Join(findings.CapList(versionWords(res.Versions), 2), ", "))
	}
	if n := res.Findings.New + len(res.FindingsNew); n > 0 {
		parts = append(parts, report.Plural(n, "new finding"))
	}
	if n := res.Findings.Gone + len(res.FindingsGone); n > 0 {
		parts = append(parts, report.Plural(n, "finding")+" gone")
	}
	if n := res.Findings.Changed; n > 0 {
		parts = append(parts, report.Plural(n, "finding")+" changed in count")
	}
	if n := res.Findings.Moved; n > 0 {
		parts = append(parts, report.Plural(n, "finding")+" moved")
	}
	if m := res.Metric; m != nil && m.Big {
		parts = append(parts, fmt.Sprintf("metric %g → %g", *m.A, *m.B))
	}
	if c := res.Coverage; c != nil && c.Changed() {
		parts = append(parts, c.Verdict())
	}
	if c := res.Findings.Steady; c != nil && c.Changed() {
		parts = append(parts, c.Verdict()...)
	}
	parts = append(slices.Clone(res.noPair), parts...) // what makes them no pair first
	if len(parts) == 0 {
		if len(res.NotCompared) > 0 { // no difference is claimed of what one side could not show
			return "no difference in what both sides show; the rest was not compared", false
		}
		if len(res.Settings) > 0 {
			n := len(res.Settings)
			return "no difference in compile time, caches or findings (" + report.Plural(n, "other setting") + report.VerbS(n, " differ") + ")", true
		}
		return "no difference", true
	}
	return strings.Join(parts, "; "), false
}

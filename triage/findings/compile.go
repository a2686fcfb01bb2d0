package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Findings about compile time and compile caches: a cache bypassed with a reason, one rank cold while others
// hit, caches disabled or slowed by a knob, ranks whose compile time differs a lot.

// Finding kinds of this file.
const (
	KindCacheMiss   = playbooks.KindCacheMiss
	KindCompileTime = playbooks.KindCompileTime
)

// Compile skew worth a finding: the slowest rank took this much longer, and this many times as long.
const (
	skewFindingS     = 2.0
	skewFindingRatio = 1.5
)

var CacheWords = map[string]string{"fx_graph": "FX graph cache", "aot_autograd": "AOTAutograd cache", "pgo": "PGO code state"}

func compileFinding(kind Kind, id, title, detail, reason string, ranks []int, set *playbooks.Set) Finding {
	f := Finding{Kind: kind, ID: string(kind) + ":" + id, Title: title, What: text.OneLine(title, 60), Detail: detail,
		Records: 1, Ranks: ranks, Evidence: []report.Evidence{}, RankStats: map[int]report.RankStat{}}
	for _, r := range ranks {
		f.RankStats[r] = report.StatN(1)
	}
	if len(ranks) == 0 {
		f.Ranks = []int{}
		f.RankStats[-1] = report.StatN(1)
	}
	ApplyPlaybook(&f, MatchPlaybook(set, playbooks.Query{Kind: kind, Reason: reason}))
	f.Key = f.ID
	return f
}

// compileFindings derives the findings of the report's compile object and the probe's knobs.
func CompileFindings(c *report.CompileReport, probes []report.ProcessInfo, set *playbooks.Set, toolEnv map[string]string, idle []int) []Finding {
	var out []Finding
	rs := c.Ranks()
	ranks := report.SortedInts(rs)
	for _, name := range report.CacheNames {
		reasons := map[string][]int{}
		for _, r := range ranks {
			for reason := range rs[r].Caches[name].BypassReasons {
				reasons[reason] = report.AppendRank(reasons[reason], r)
			}
		}
		for _, reason := range report.SortedStrings(reasons) {
			title := fmt.Sprintf("%s bypassed: %s", CacheWords[name], text.OneLine(reason, text.TitleMax))
			out = append(out, compileFinding(KindCacheMiss, "bypass:"+name+":"+text.ClipRunes(reason, 80), title,
				title+"\nA bypassed graph is compiled cold on every start.", name+" cache bypass: "+reason, NonNeg(reasons[reason]), set))
		}
		if f, ok := splitCacheFinding(name, rs, ranks, probes, set); ok {
			out = append(out, f)
		}
	}
	if f, ok := SkewFinding(c, set); ok && !slices.Contains(idle, f.Ranks[0]) && !idleFast(c, idle) {
		out = append(out, f)
	}
	out = append(out, knobFindings(probes, set, toolEnv)...)
	return out
}

// splitCacheFinding: some ranks only missed a cache that other ranks hit.
func splitCacheFinding(name string, rs map[int]*report.RankCompile, ranks []int, probes []report.ProcessInfo, set *playbooks.Set) (Finding, bool) {
	var cold, warm []int
	for _, r := range ranks {
		s, ok := rs[r].Caches[name]
		switch {
		case !ok || r < 0:
		case s.Hit > 0:
			warm = append(warm, r)
		case s.Miss > 0:
			cold = append(cold, r)
		}
	}
	if len(cold) == 0 || len(warm) == 0 {
		return Finding{}, false
	}
	title := fmt.Sprintf("%s missed on %s while %s hit it", CacheWords[name], report.RankWord(cold), report.RankWord(warm))
	detail := title + "\nThose ranks compiled cold: their cache dir is not the others' (not shared, fresh node or container) or their cache key differs."
	reason := name + " cache miss on some ranks while others hit"
	for _, d := range report.ConfigParity(probes) {
		if IsCacheKnob(strings.TrimPrefix(d.Key, "env.")) {
			detail += "\nSettings that differ: " + d.String()
			reason += "; " + d.Key + " differs"
		}
	}
	return compileFinding(KindCacheMiss, "ranks:"+name, title, detail, reason, cold, set), true
}

// skewFinding: the slowest rank compiled much longer than the fastest.
func SkewFinding(c *report.CompileReport, set *playbooks.Set) (Finding, bool) {
	slow, fast, ok := c.SlowFast()
	if !ok {
		return Finding{}, false
	}
	rs := c.Ranks()
	ts, tf := *rs[slow].TotalS, *rs[fast].TotalS
	if ts-tf < skewFindingS || ts < tf*skewFindingRatio {
		return Finding{}, false
	}
	title := fmt.Sprintf("rank %d compiled %.1f s, rank %d %.1f s (+%.1f s): the others wait for it at the first collective", slow, ts, fast, tf, ts-tf)
	reason := "compile time differs between ranks"
	if a, b := rs[slow].Caches, rs[fast].Caches; missedMore(a["fx_graph"], b["fx_graph"]) || missedMore(a["aot_autograd"], b["aot_autograd"]) {
		title += "; it missed the cache the faster rank hit"
		reason += "; cache miss on the slow rank"
	}
	return compileFinding(KindCompileTime, "skew", title, title, reason, []int{slow}, set), true
}

// idleFast reports a skew whose fast rank compiled nothing before the run was cut short (idleRanks): it did not
// wait for the slow one, it never got that far.
func idleFast(c *report.CompileReport, idle []int) bool {
	_, fast, ok := c.SlowFast()
	return ok && slices.Contains(idle, fast)
}

// missedMore reports a cache the slow rank missed more often than the fast one (misses it knows of), which the
// fast one hit: fewer hits alone is fewer graphs, not a cold cache, and a fast rank that hit nothing (it compiled
// nothing) shows no warm cache to have missed.
func missedMore(slow, fast report.CacheStats) bool {
	return slow.Known&report.KnowMiss != 0 && slow.Miss > 0 && slow.Miss > fast.Miss && fast.Hit > 0
}

func NonNeg(ranks []int) []int {
	out := []int{}
	for _, r := range ranks {
		if r >= 0 {
			out = append(out, r)
		}
	}
	return out
}

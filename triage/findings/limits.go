package findings

import (
	"fmt"
	"sort"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/report"
)

// limitFindings groups recompile-limit hits by frame and attaches them to the frame's recompile findings.
func LimitFindings(hits []report.LimitSummary, recomps []Finding, set *playbooks.Set) []Finding {
	type lkey struct {
		fn, file, limit string
		resume          int
	}
	groups := map[lkey]*Finding{}
	cids := map[lkey]map[string]bool{}
	var order []lkey
	var frames map[recompFrame][]int // the recompile findings of each frame, built at the first hit
	for _, h := range hits {
		fn, resume := guard.FoldFunction(h.Function)
		k := lkey{fn, h.File, h.Limit, resume}
		f := groups[k]
		if f == nil {
			last := report.CidPrefix.ReplaceAllString(h.LastReason, "")
			gc := guard.Classify(last)
			q := playbooks.Query{Kind: KindLimitHit, Reason: "torch._dynamo hit " + h.LimitWords() + "\n   last reason: " + h.LastReason}
			if gc.Class != "other" || last != "" {
				q.GuardClass = gc.Class
			}
			f = &Finding{Kind: KindLimitHit, Severity: "high", File: h.File, Line: h.Line, Function: fn,
				What: limitWhat(h), RankStats: map[int]report.RankStat{}, Resume: resume}
			if resume > 0 {
				f.Line = resume
			}
			ApplyPlaybook(f, MatchPlaybook(set, q))
			f.Category = CategoryFix // the frame runs eager from now on, or the call failed: always worth fixing
			f.ID = "limit_hit:" + ShortPath(h.File) + ":" + FnDisplay(fn, resume)
			words := h.LimitWords() // what the input says of the limit
			if h.Limit != "" && h.Value > 0 {
				words = fmt.Sprintf("config.%s (%d%s)", h.Limit, h.Value, limitNote(h.Limit, h.Value))
			}
			f.Title = fmt.Sprintf("%s hit %s: %s", FnDisplay(fn, resume), words, h.Then())
			then := "Every new variant of this frame now runs eagerly (a performance cliff)."
			if h.Raised {
				then = "fail_on_recompile_limit_hit (or fullgraph) made the hit an error: the call that needed another compile failed."
			}
			f.Detail = fmt.Sprintf("Function: %s in %s\nLast reason: %s\n%s\nWhich limit: %s", h.Function, h.File, h.LastReason, then,
				limitWhere(h.Limit, h.Value))
			if gc.Class != "other" {
				f.Classes = []guard.Class{gc}
			}
			groups[k], cids[k] = f, map[string]bool{}
			order = append(order, k)
			if frames == nil {
				frames = framesOf(recomps)
			}
			attachLimit(recomps, frames[recompFrame{fn, resume}], h)
		}
		f.addEvent(h.Evidence, h.Rank, h.CompileID)
		if h.CompileID != "" && !cids[k][h.CompileID] {
			cids[k][h.CompileID] = true
			f.CompileIDs = append(f.CompileIDs, h.CompileID)
		}
	}
	out := make([]Finding, 0, len(order))
	for _, k := range order {
		f := groups[k]
		f.Ranks = RanksOf(f.RankStats)
		sort.Strings(f.CompileIDs)
		f.Key = "limit_hit:" + ShortPath(k.file) + ":" + k.fn // the resume line left out: lines move
		out = append(out, *f)
	}
	return out
}

// limitWhat is a limit hit's What: "recompile_limit (8)", or LimitWords where the input does not name both.
func limitWhat(h report.LimitSummary) string {
	if h.Limit != "" && h.Value > 0 {
		return fmt.Sprintf("%s (%d)", h.Limit, h.Value)
	}
	return h.LimitWords()
}

type recompFrame struct {
	fn     string
	resume int
}

// framesOf indexes recompile findings by frame (function and resume line).
func framesOf(recomps []Finding) map[recompFrame][]int {
	out := map[recompFrame][]int{}
	for i := range recomps {
		if r := &recomps[i]; r.Kind == KindRecompile {
			k := recompFrame{r.Function, r.Resume}
			out[k] = append(out[k], i)
		}
	}
	return out
}

// attachLimit marks the recompile findings of the frame that hit the limit (at, from framesOf).
func attachLimit(recomps []Finding, at []int, h report.LimitSummary) {
	for _, i := range at {
		r := &recomps[i]
		if h.File == "" || sameFile(r.Evidence, h.File) {
			r.LimitHit = true
			r.Detail += "\nThis frame hit the recompile limit: " + h.Then() + "."
			if !r.Expected {
				r.Severity, r.Category = "high", CategoryFix
			}
			if r.Variants { // more variants than the limit allows: no longer a few modes
				r.Variants, r.unexpected = false, r.Records
				r.Title = fmt.Sprintf("%s recompiles %d×, past the recompile limit: %s", FnDisplay(r.Function, r.Resume), r.Records,
					DescribeClasses(r.Classes))
			}
		}
	}
}

func sameFile(ev []report.Evidence, file string) bool {
	for _, e := range ev {
		if e.File == file {
			return true
		}
	}
	return len(ev) == 0
}

// addEvent counts one event (a limit hit, an error) of a grouped finding: its record, evidence and rank.
func (f *Finding) addEvent(ev report.Evidence, rank int, compileID string) {
	f.Records++
	if len(f.Evidence) < report.MaxEvidence {
		f.Evidence = append(f.Evidence, ev)
	}
	st, ok := f.RankStats[rank]
	if !ok {
		st = report.StatN(0)
	}
	cid, _ := parseCID(compileID)
	st.Add(cid)
	f.RankStats[rank] = st
}

// defaultLimits are torch's defaults of the recompile limits (2.6 and 2.14.1 torch/_dynamo/config.py): the
// per-frame limit (cache_size_limit, renamed recompile_limit) and the cap over all of a code object's entries.
var defaultLimits = map[string]int{"recompile_limit": 8, "cache_size_limit": 8,
	"accumulated_recompile_limit": 256, "accumulated_cache_size_limit": 256}

// limitNote says in a limit hit's title that its value is not torch's default (", not the default 8"): set by the
// program, on 2.14 maybe by this torch.compile call alone.
func limitNote(limit string, value int) string {
	if d, ok := defaultLimits[limit]; ok && d != value {
		return fmt.Sprintf(", not the default %d", d)
	}
	return ""
}

// limitWhere names which limit was hit and where to raise it. 2.14's torch.compile(recompile_limit=N) patches
// config.recompile_limit for that call, so the N the warning prints is per call (torch-2.15-and-frameworks.md
// §3.1); the accumulated limit is the cap over all of a function's cache entries.
func limitWhere(limit string, value int) string {
	if value <= 0 { // a hit known from a trace only: the value torch warns with is not in the input
		name := limit
		if name == "" {
			name = "recompile_limit (cache_size_limit before 2.7)"
		}
		return "the recompile limit, whose value the input does not give (default 8 per frame, 256 over a " +
			"function's entries): raise torch._dynamo.config." + name + ", or (2.14+) this call's " +
			"torch.compile(..., recompile_limit=N), or remove the recompiles' cause."
	}
	switch limit {
	case "recompile_limit":
		if value != defaultLimits[limit] {
			return fmt.Sprintf("the per-frame recompile limit, %d here, not the default 8: set by "+
				"torch._dynamo.config.recompile_limit = %d, or by this call's torch.compile(..., recompile_limit=%d) (2.14+: the "+
				"N is per torch.compile call). Raise it where it is set, or remove the recompiles' cause.", value, value, value)
		}
		return "the per-frame recompile limit at its default 8: raise torch._dynamo.config.recompile_limit, or " +
			"(2.14+) this call's torch.compile(..., recompile_limit=N), or remove the recompiles' cause."
	case "cache_size_limit":
		return fmt.Sprintf("the per-frame recompile limit (%d; default 8): raise torch._dynamo.config.cache_size_limit "+
			"(2.6 and before; recompile_limit later), or remove the recompiles' cause.", value)
	case "accumulated_recompile_limit", "accumulated_cache_size_limit":
		return fmt.Sprintf("the cap over all compiled entries of one function (%d; default 256), not the per-frame "+
			"limit: raise torch._dynamo.config.%s, or remove the recompiles' cause.", value, limit)
	}
	return "torch._dynamo.config." + limit
}

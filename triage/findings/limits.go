package findings

import (
	"fmt"
	"sort"

	"github.com/torchtriage/torchtriage/playbooks"
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
		fn, resume := report.FoldFunction(h.Function)
		k := lkey{fn, h.File, h.Limit, resume}
		f := groups[k]
		if f == nil {
			last := report.CidPrefix.ReplaceAllString(h.LastReason, "")
			gc := report.ClassifyGuard(last)
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
			f.Title = fmt.Sprintf("%s hit %s: %s", FnDisplay(fn, resume), h.LimitWords(), h.Then())
			then := "Every new variant of this frame now runs eagerly (a performance cliff)."
			if h.Raised {
				then = "fail_on_recompile_limit_hit (or fullgraph) made the hit an error: the call that needed another compile failed."
			}
			f.Detail = fmt.Sprintf("Function: %s in %s\nLast reason: %s\n%s", h.Function, h.File, h.LastReason, then)
			if gc.Class != "other" {
				f.Classes = []report.GuardClass{gc}
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

package tui

import (
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
)

// leftKinds go to the left list (breaks and everything that is not a recompile); recompiles and limit hits to
// the right one.
var rightKinds = map[findings.Kind]bool{findings.KindRecompile: true, findings.KindLimitHit: true}

// rows splits an analysis's findings (already sorted by impact) into the two lists.
func rows(a *triage.Analysis, set *playbooks.Set) (left, right []*row) {
	var lf, rf []*findings.Finding
	for i := range a.Findings {
		f := &a.Findings[i]
		r := rowOf(f, set)
		if rightKinds[r.kind] {
			right, rf = append(right, r), append(rf, f)
		} else {
			left, lf = append(left, r), append(lf, f)
		}
	}
	distinguish(left, lf)
	distinguish(right, rf)
	for _, r := range append(left[:len(left):len(left)], right...) {
		r.search = r.what + " " + r.where + " " + r.note
	}
	return left, right
}

// rowOf turns a finding into a list row.
func rowOf(f *findings.Finding, set *playbooks.Set) *row {
	r := &row{key: f.ID, kind: f.Kind, file: f.File, line: f.Line, count: f.Records, ranks: f.Ranks,
		expected: f.Expected, assumed: f.Expected && f.ExpectedAssumed(), caught: f.Caught, why: f.Why, peerGone: f.PeerGone, severity: f.Severity, category: f.Category, title: f.Title, do: f.Do, evidence: f.Evidence,
		perRank: f.PerRank(), what: f.What}
	if f.Detail != "" {
		r.detail = strings.Split(f.Detail, "\n")
	}
	where := site(f.File, f.Line)
	switch f.Kind {
	case findings.KindRecompile, findings.KindLimitHit:
		r.what = f.Function
		if f.Module != "" { // a compiled torch module through torch's wrapper: the module, called from f.Function
			r.what = f.Module
			where += " " + f.Function
		}
		if r.what == "" {
			r.what = "?"
		}
		if f.Resume > 0 {
			r.what += " (resume @" + strconv.Itoa(f.Resume) + ")"
		}
		r.note = f.What
		r.limit = f.LimitHit || f.Kind == findings.KindLimitHit
	case findings.KindGraphBreak:
		if f.Function != "" {
			where += " " + f.Function
		}
	default:
		if where == "" && f.Function != "" {
			where = f.Function
		}
	}
	r.where = where
	if set != nil {
		if p, ok := set.Get(f.Playbook); ok {
			r.pb = p
			if (f.Severity != "" && f.Severity != p.Severity) || (f.Category != "" && f.Category != p.Category) {
				c := *p // the header gives this finding's severity and category (a limit hit makes a recompile high)
				c.Severity, c.Category = orText(f.Severity, p.Severity), orText(f.Category, p.Category)
				r.pb = &c
			}
		}
		for _, id := range f.Related {
			if p, ok := set.Get(id); ok {
				r.related = append(r.related, p)
			}
		}
	}
	r.gbid = f.GBID
	r.what, r.where, r.note = clean(r.what), clean(r.where), clean(r.note)
	return r
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

package playbooks

import (
	"slices"
	"sort"
	"strings"
)

// Query describes one finding to match against the playbooks.
type Query struct {
	Kind   Kind   // one of Kinds()
	GBID   string // "GB0059" (may be empty)
	GBType string // 2.8+ gb_type (may be empty)
	// Reason is the reason / message / skip reason / guard text / exception
	// message. For 2.8+ graph breaks pass the explanation, hints and developer
	// debug context lines: reason patterns use them to tell causes that share
	// a GB id apart (GB0059 is print and every other builtin).
	Reason     string
	GuardClass string // one of GuardClasses, for recompiles and limit hits
	ErrorClass string // exception class, e.g. "torch._dynamo.exc.BackendCompilerFailed" or "CppCompileError"
}

// Result is the outcome of Match: exactly one Primary, never nil for a Set
// that holds the generic fallbacks.
type Result struct {
	Primary    *Playbook
	Related    []*Playbook
	RelatedIDs []string // the ids of Related (shared by every caller of the same query: read-only)
	Level      string   // "gb_id", "gb_type", "guard", "error", "reason" or "fallback"
}

// Match levels, most specific first.
const (
	LevelGBID     = "gb_id"
	LevelGBType   = "gb_type"
	LevelGuard    = "guard"
	LevelError    = "error"
	LevelReason   = "reason"
	LevelFallback = "fallback"
)

const (
	weightGBID   = 16
	weightGBType = 8
	weightGuard  = 4
	weightError  = 4
	weightReason = 2
)

type hit struct {
	p       *Playbook
	score   int    // sum of the weights of the matched criteria
	level   string // most specific matched criterion
	reasons int    // number of reason patterns that matched
	keyed   bool   // matched on a key (GB id, gb_type, guard class, exception class), not on message words alone
}

// Match picks the most specific playbook for q. The rule:
//
//   - A playbook is considered only when q.Kind is one of its kinds.
//   - Criteria: gb_ids (q.GBID), gb_types (q.GBType, case-insensitive), guards
//     (q.GuardClass), errors (regexps tried on q.ErrorClass and q.Reason),
//     reasons (regexps tried on q.Reason plus q.GBType). Weights 16, 8, 4, 4,
//     2: any GB-id match beats any combination of less specific ones.
//   - Message text is read without its quoted advice (adviceFree): errors and
//     reasons never match words of a `Hint:` line or of a "run with
//     TORCH_LOGS=…"-style suggestion inside a message.
//   - Reasons refine GB ids: GB ids and gb_types are shared by several causes
//     (GB0059 covers print and every other builtin), so a playbook that lists
//     reasons claims its gb_ids/gb_types only when one of its reasons matches
//     or q.Reason is empty.
//   - Ties: more matching reason patterns, then the narrower playbook (fewer
//     gb_ids+gb_types), then the id.
//   - The order of the sources: a built-in or user playbook that matched on a
//     key (GB id, gb_type, guard class or exception class: q.ErrorClass
//     matched by an errors pattern); else the registry playbook of q.GBID,
//     else of q.GBType (registryFor: PyTorch's own words for that id, which
//     beat a playbook that matched on message words only); else the best
//     built-in or user playbook by message words (reasons, errors patterns on
//     q.Reason); else generic-<kind>, or generic-unknown for a kind without
//     one.
//
// Related is the primary's `related` list, then the other matching playbooks
// best first, then the registry playbook of the GB id when the primary is not
// it; deduplicated, never the primary, never a fallback unless the primary
// names it.
//
// Results are remembered per query by the set (many findings share one: the same cause at many sites, the same
// guard class on every rank), so a caller that analyses often keeps one set.
func (s *Set) Match(q Query) Result {
	s.memoMu.Lock()
	r, ok := s.memo[q]
	s.memoMu.Unlock()
	if ok {
		return r
	}
	r = s.match(q)
	s.memoMu.Lock()
	if s.memo == nil || len(s.memo) >= maxMemo {
		s.memo = make(map[Query]Result, 256)
	}
	s.memo[q] = r
	s.memoMu.Unlock()
	return r
}

// maxMemo bounds the remembered queries of a set (a run with many distinct reasons starts over past it).
const maxMemo = 50000

func (s *Set) match(q Query) Result {
	if q.GBID == "" && q.GBType == "" && (q.Kind == KindGraphBreak || q.Kind == KindCompileError) {
		// an older torch's message that starts with what became a gb_type is that gb_type's break: matched as
		// its GB id and gb_type would be (a built-in playbook of the id first), at the level of message words
		if i := registryEntryIn(adviceFree(q.Reason)); i >= 0 {
			e := &registryEntries[i]
			q.GBID, q.GBType = e.id, e.gbType
			r := s.match(q)
			if r.Level == LevelGBID || r.Level == LevelGBType {
				r.Level = LevelReason
			}
			return r
		}
	}
	text := adviceFree(q.Reason)
	var hits []hit
	keyed := false // a hit matched on a key, not on message words alone
	for _, p := range s.all {
		if h, ok := score(p, q, text); ok {
			hits = append(hits, h)
			keyed = keyed || h.keyed
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return better(hits[i], hits[j]) })
	reg, regLevel := s.registryFor(q)

	var res Result
	switch {
	case keyed:
		res.Primary, res.Level = hits[0].p, hits[0].level
		hits = hits[1:]
	case reg != nil:
		res.Primary, res.Level = reg, regLevel
	case len(hits) > 0:
		res.Primary, res.Level = hits[0].p, hits[0].level
		hits = hits[1:]
	default:
		res.Primary, res.Level = s.fallback(q.Kind), LevelFallback
	}
	if res.Primary == nil {
		return res
	}
	seen := map[string]bool{res.Primary.ID: true}
	for _, id := range res.Primary.Related {
		if p, ok := s.Get(id); ok && !seen[p.ID] {
			seen[p.ID] = true
			res.Related = append(res.Related, p)
		}
	}
	for _, h := range hits {
		if !seen[h.p.ID] {
			seen[h.p.ID] = true
			res.Related = append(res.Related, h.p)
		}
	}
	if reg != nil && !seen[reg.ID] {
		res.Related = append(res.Related, reg)
	}
	res.RelatedIDs = make([]string, len(res.Related))
	for i, p := range res.Related {
		res.RelatedIDs[i] = p.ID
	}
	return res
}

func (s *Set) fallback(kind Kind) *Playbook {
	if p, ok := s.Get(GenericPrefix + string(kind)); ok && slices.Contains(p.Match.Kinds, kind) {
		return p
	}
	p, _ := s.Get(UnknownFallbackID)
	return p
}

// score matches one playbook; generic playbooks without criteria never match
// here (they are only the fallback).
// reason is q.Reason without its quoted advice (adviceFree).
func score(p *Playbook, q Query, reason string) (hit, bool) {
	m := p.Match
	if !slices.Contains(m.Kinds, q.Kind) || !m.HasCriteria() {
		return hit{}, false
	}
	h := hit{p: p}
	text := strings.TrimSpace(reason + "\n" + q.GBType)
	for _, re := range m.Reasons {
		if text != "" && re.MatchString(text) {
			h.reasons++
		}
	}
	claimsGB := len(m.Reasons) == 0 || h.reasons > 0 || q.Reason == ""
	add := func(ok bool, w int, level string) {
		if ok {
			h.score += w
			if h.level == "" {
				h.level = level
			}
		}
	}
	add(claimsGB && q.GBID != "" && slices.Contains(m.GBIDs, NormalizeGBID(q.GBID)), weightGBID, LevelGBID)
	add(claimsGB && q.GBType != "" && slices.ContainsFunc(m.GBTypes, func(t string) bool {
		return strings.EqualFold(strings.TrimSpace(t), strings.TrimSpace(q.GBType))
	}), weightGBType, LevelGBType)
	add(q.GuardClass != "" && slices.Contains(m.Guards, q.GuardClass), weightGuard, LevelGuard)
	byClass, byText := errorMatch(m, q.ErrorClass, reason)
	add(byClass || byText, weightError, LevelError)
	add(h.reasons > 0, weightReason, LevelReason)
	h.keyed = h.score-weightReason*btoi(h.reasons > 0)-weightError*btoi(byText && !byClass) > 0
	return h, h.score > 0
}

// errorMatch reports whether an errors pattern of m matches the exception class, or only the message text.
func errorMatch(m Match, errorClass, reason string) (byClass, byText bool) {
	for _, re := range m.Errors {
		if errorClass != "" && re.MatchString(errorClass) {
			return true, false
		}
		byText = byText || reason != "" && re.MatchString(reason)
	}
	return false, byText
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func better(a, b hit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.reasons != b.reasons {
		return a.reasons > b.reasons
	}
	if breadth(a.p) != breadth(b.p) {
		return breadth(a.p) < breadth(b.p)
	}
	return a.p.ID < b.p.ID
}

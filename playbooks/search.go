package playbooks

import (
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/sahilm/fuzzy"
)

// Search finds playbooks by a fuzzy query over ids, titles, GB ids, gb_types
// and body words, best first: the built-in and user playbooks, and the registry
// playbooks (after the others at an equal score). Every whitespace-separated
// term must match something in a playbook. Per term, an exact id or GB id beats
// a fuzzy match in the id/title/GB fields, which beats a body word. An empty
// query returns the built-in and user playbooks (All), sorted by id.
func (s *Set) Search(query string) []*Playbook {
	terms := strings.Fields(query)
	if len(terms) == 0 {
		return s.All()
	}
	type scored struct {
		p     *Playbook
		score int
	}
	s.searchOnce.Do(func() {
		s.search = make(map[*Playbook]searchEntry, len(s.all))
		for _, p := range s.all {
			h, w := searchFields(p)
			s.search[p] = searchEntry{h, w}
		}
	})
	var hits []scored
	try := func(p *Playbook, e searchEntry) {
		total := 0
		for _, t := range terms {
			sc, found := termScore(t, p, e.heads, e.words)
			if !found {
				return
			}
			total += sc
		}
		hits = append(hits, scored{p, total})
	}
	for _, p := range s.all {
		try(p, s.search[p])
	}
	reg, entries := registrySearch()
	for i, p := range reg {
		if _, replaced := s.byID[p.ID]; !replaced { // a user playbook of that id stands in for it (it is in s.all)
			try(p, entries[i])
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		if a, b := hits[i].p.FromRegistry(), hits[j].p.FromRegistry(); a != b {
			return b
		}
		return hits[i].p.ID < hits[j].p.ID
	})
	out := make([]*Playbook, len(hits))
	for i, h := range hits {
		out[i] = h.p
	}
	return out
}

// registrySearch is every registry playbook and its search fields, made on the first search.
var registrySearch = sync.OnceValues(func() ([]*Playbook, []searchEntry) {
	ps := Registry()
	es := make([]searchEntry, len(ps))
	for i, p := range ps {
		es[i].heads, es[i].words = searchFields(p)
	}
	return ps, es
})

type searchEntry struct{ heads, words []string }

const (
	tierExact = 3000
	tierHead  = 2000
	tierBody  = 1000
)

func termScore(term string, p *Playbook, heads, words []string) (int, bool) {
	if strings.EqualFold(term, p.ID) {
		return tierExact, true
	}
	for _, g := range p.Match.GBIDs {
		if NormalizeGBID(term) == g {
			return tierExact, true
		}
	}
	best, found := 0, false
	consider := func(tier int, fields []string, slack func(n int) int) {
		for _, m := range fuzzy.Find(term, fields) {
			if !tight(m.MatchedIndexes, len(term), slack) {
				continue
			}
			if sc := tier + m.Score; !found || sc > best {
				best, found = sc, true
			}
		}
	}
	consider(tierHead, heads, func(n int) int { return n + n/2 + 2 })
	if !found {
		consider(tierBody, words, func(n int) int { return n + n/4 })
	}
	return best, found
}

// tight rejects matches whose characters are scattered across the field:
// with long titles and bodies nearly any pattern is a subsequence somewhere.
func tight(idx []int, n int, slack func(int) int) bool {
	if len(idx) == 0 {
		return false
	}
	return idx[len(idx)-1]-idx[0]+1 <= slack(n)
}

func searchFields(p *Playbook) (heads, words []string) {
	heads = append(heads, p.ID, p.Title)
	heads = append(heads, p.Match.GBIDs...)
	heads = append(heads, p.Match.GBTypes...)
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(p.Body, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.')
	}) {
		w = strings.ToLower(strings.Trim(w, "."))
		if len(w) >= 2 && !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return heads, words
}

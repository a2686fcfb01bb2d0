package playbooks

import (
	"sort"
	"strings"
)

// ClosestIDs suggests up to n playbook ids for a key that matched nothing:
// fuzzy search hits first, then the ids (or GB ids) with the smallest edit
// distance to the key.
func ClosestIDs(s *Set, key string, n int) []string {
	var out []string
	seen := map[string]bool{}
	add := func(id string) {
		if len(out) < n && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, p := range s.Search(key) {
		add(p.ID)
	}
	type cand struct {
		id   string
		dist int
	}
	var cands []cand
	k := strings.ToLower(key)
	for _, p := range s.all {
		d := editDistance(k, p.ID)
		for _, g := range p.Match.GBIDs {
			d = min(d, editDistance(strings.ToUpper(key), g))
		}
		cands = append(cands, cand{p.ID, d})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].dist < cands[j].dist })
	for _, c := range cands {
		add(c.id)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

package triage

import (
	"sync"

	"github.com/torchtriage/torchtriage/playbooks"
)

// Playbook matching tries every playbook's regexps; the TUI analyses on every batch, so results are cached per
// set and query (many findings share a query: the same cause at many sites, the same guard class).
var matchCache struct {
	sync.Mutex
	set *playbooks.Set
	m   map[playbooks.Query]playbooks.Result
}

const maxMatchCache = 50000

func matchPlaybook(set *playbooks.Set, q playbooks.Query) playbooks.Result {
	if set == nil {
		return playbooks.Result{}
	}
	matchCache.Lock()
	if matchCache.set != set || len(matchCache.m) > maxMatchCache {
		matchCache.set, matchCache.m = set, map[playbooks.Query]playbooks.Result{}
	}
	if r, ok := matchCache.m[q]; ok {
		matchCache.Unlock()
		return r
	}
	matchCache.Unlock()
	r := set.Match(q)
	matchCache.Lock()
	if matchCache.set == set {
		matchCache.m[q] = r
	}
	matchCache.Unlock()
	return r
}

// applyPlaybook sets the finding's playbook, related playbooks, and the severity and category the playbook
// gives (a finding already marked expected stays expected).
func applyPlaybook(f *Finding, r playbooks.Result) {
	f.Related = []string{}
	if r.Primary == nil {
		if f.Severity == "" {
			f.Severity = "medium"
		}
		if f.Category == "" {
			f.Category = CategoryFix
		}
		return
	}
	f.Playbook = r.Primary.ID
	f.Related = relatedIDs(r)
	if f.Severity == "" {
		f.Severity = r.Primary.Severity
	}
	if f.Category == "" {
		f.Category = r.Primary.Category
	}
	if r.Primary.Expected() {
		f.Expected = true
	}
	if f.Expected {
		f.Category, f.Severity = CategoryExpected, "info"
	}
}

// relatedIDs lists the ids of a result's related playbooks; the slice is shared by every finding with the same
// match (read-only).
func relatedIDs(r playbooks.Result) []string {
	relatedCache.Lock()
	defer relatedCache.Unlock()
	if relatedCache.m == nil || len(relatedCache.m) > maxMatchCache {
		relatedCache.m = map[*playbooks.Playbook][]string{}
	}
	if ids, ok := relatedCache.m[r.Primary]; ok && sameRelated(ids, r.Related) {
		return ids
	}
	ids := make([]string, len(r.Related))
	for i, p := range r.Related {
		ids[i] = p.ID
	}
	relatedCache.m[r.Primary] = ids
	return ids
}

func sameRelated(ids []string, ps []*playbooks.Playbook) bool {
	if len(ids) != len(ps) {
		return false
	}
	for i, p := range ps {
		if ids[i] != p.ID {
			return false
		}
	}
	return true
}

var relatedCache struct {
	sync.Mutex
	m map[*playbooks.Playbook][]string
}

// builtinSet is the fallback when Analyze gets no set.
var builtinSet = sync.OnceValue(func() *playbooks.Set {
	s, _ := playbooks.Builtin()
	return s
})

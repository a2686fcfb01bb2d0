package tui

import (
	"path/filepath"

	"github.com/torchtriage/torchtriage/triage/findings"
)

// distinguish makes rows of one list that would read the same (same what, same where: two breaks of one
// line of the user's code with different gb_types) show what differs: the gb_type, else the graph-break id,
// else the break site. fs are the rows' findings.
func distinguish(rs []*row, fs []*findings.Finding) {
	groups := map[string][]int{}
	var order []string
	for i, r := range rs {
		k := r.what + "\x00" + r.where + "\x00" + r.note
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	for _, k := range order {
		idx := groups[k]
		if len(idx) < 2 {
			continue
		}
		for _, get := range []func(*findings.Finding) string{gbType, func(f *findings.Finding) string { return f.GBID }, breakSite} {
			if !allDiffer(idx, fs, get) {
				continue
			}
			for _, i := range idx {
				rs[i].what = clean(rs[i].what + " · " + get(fs[i]))
			}
			break
		}
	}
}

// allDiffer reports whether get gives each finding of idx its own non-empty text.
func allDiffer(idx []int, fs []*findings.Finding, get func(*findings.Finding) string) bool {
	seen := map[string]bool{}
	for _, i := range idx {
		v := get(fs[i])
		if v == "" || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// gbType is the finding's gb_type ("Unsupported method call").
func gbType(f *findings.Finding) string { return f.GBType }

// breakSite is where torch broke the graph ("contextlib.py:109").
func breakSite(f *findings.Finding) string {
	if f.BreakSite == "" {
		return ""
	}
	return filepath.Base(f.BreakSite)
}

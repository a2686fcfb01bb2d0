package report

import (
	"slices"
	"sort"

	"github.com/torchtriage/torchtriage/logparse"
)

// cidSet is a break's distinct compile ids (BreakSummary.CompileIDs). Most breaks have a few (a break is one
// compile of its frame, the same id on every rank), so they are a list scanned, and a map only past maxCIDScan:
// a map for each break took ~380 bytes and a hash a record (bench/many.sh: 5,000 breaks, 1.6 MB). The zero value
// is ready.
type cidSet struct {
	list []logparse.CompileID // while it holds at most maxCIDScan
	set  map[logparse.CompileID]bool
}

const maxCIDScan = 8

func (s *cidSet) Add(c logparse.CompileID) {
	switch {
	case s.set != nil:
		s.set[c] = true
	case slices.Contains(s.list, c):
	case len(s.list) < maxCIDScan:
		s.list = append(s.list, c)
	default:
		s.set = make(map[logparse.CompileID]bool, 2*maxCIDScan)
		for _, x := range s.list {
			s.set[x] = true
		}
		s.set[c] = true
		s.list = nil
	}
}

// strings lists the ids as CompileID.String words them, sorted (a new slice, never nil).
func (s *cidSet) strings() []string {
	out := make([]string, 0, len(s.list)+len(s.set))
	for _, c := range s.list {
		out = append(out, c.String())
	}
	for c := range s.set {
		out = append(out, c.String())
	}
	sort.Strings(out)
	return out
}

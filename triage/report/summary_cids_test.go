package report

import (
	"fmt"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// A break's compile ids are a set whether it holds a few (a list) or many (a map past maxCIDScan), listed sorted
// as strings.
func TestCIDSet(t *testing.T) {
	cid := func(f int) logparse.CompileID { return logparse.CompileID{Autograd: -1, Frame: f} }
	for _, n := range []int{0, 1, maxCIDScan, maxCIDScan + 1, 3 * maxCIDScan} {
		var s cidSet
		var want []string
		for f := n - 1; f >= 0; f-- {
			s.Add(cid(f))
			s.Add(cid(f))
			s.Add(cid(n - 1))
		}
		for f := 0; f < n; f++ {
			want = append(want, cid(f).String())
		}
		got := s.strings()
		if got == nil || fmt.Sprint(got) != fmt.Sprint(SortedStrings(setOf(want))) {
			t.Errorf("%d ids: %v, want %v", n, got, want)
		}
	}
}

func setOf(list []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range list {
		m[s] = true
	}
	return m
}

package triage

import (
	"fmt"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// perRank keeps each rank's count and earliest/latest compile id, in its slice (ranks -1 to 62) and its map
// (the others) alike.
func TestPerRankDenseAndBeyond(t *testing.T) {
	var p perRank
	cid := func(c int) logparse.CompileID { return logparse.CompileID{Autograd: -1, Frame: 0, Compile: c} }
	for i, rank := range []int{5, -1, 5, 1000, 62, 63, 5, 1000} {
		p.note(&logparse.Record{Rank: rank, CompileID: cid(i), FirstLine: 100 - i})
	}
	if p.len() != 5 {
		t.Fatalf("len %d, want 5 ranks", p.len())
	}
	want := map[int]int{-1: 1, 5: 3, 62: 1, 63: 1, 1000: 2}
	got := map[int]int{}
	p.each(func(rank int, st *rankStat) { got[rank] = st.N })
	for rank, n := range want {
		if got[rank] != n || p.at(rank) == nil || p.at(rank).N != n {
			t.Errorf("rank %d: %d records (each) / %v (at), want %d", rank, got[rank], p.at(rank), n)
		}
	}
	for _, rank := range []int{0, 4, 6, 61, 64, 999, -2} {
		if p.at(rank) != nil {
			t.Errorf("rank %d has no record, at gives %+v", rank, p.at(rank))
		}
	}
	// the earliest record by input line is the last noted (lines count down): compile 6 for rank 5
	if st := p.at(5); st.First.Compile != 6 || st.Last.Compile != 0 {
		t.Errorf("rank 5 first %v last %v, want compile 6 first (line 94) and 0 last (line 100)", st.First, st.Last)
	}
	if snap := p.snapshot(); len(snap) != 5 || snap[1000].N != 2 {
		t.Errorf("snapshot %v", snap)
	}
}

func TestRankSetSorted(t *testing.T) {
	var s rankSet
	if got := s.sorted(); got == nil || len(got) != 0 {
		t.Errorf("empty set: %#v, want an empty slice", got)
	}
	for _, r := range []int{1023, 3, 63, 0, 64, 3, -1, 512} {
		s.add(r)
	}
	if got := fmt.Sprint(s.sorted()); got != "[-1 0 3 63 64 512 1023]" {
		t.Errorf("sorted %s", got)
	}
}

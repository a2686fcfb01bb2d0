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

// Which scalar guards automatic dynamic may absorb once (the guards as real runs printed them:
// testdata/recorded/int-recompiles, float-arg, train-loop). 2.14.1's nn.Module int attribute carries torch's hint
// that it stays static, and is none even where one recompile alone cannot show it.
func TestAutoDynamicScalar(t *testing.T) {
	for _, c := range []struct {
		guard string
		want  bool
	}{
		{"n == 0                                                        # return x * n  # mp/rec9/ints.py:4 in f", true},
		{"L['n'] == 0", true},
		{"L['self'].step == 0", true}, // 2.6: the [0/1] compile makes it a symbol
		{"self.param_groups[0]['lr'] == 0.01                            # for group in self.param_groups:  # optim/adam.py:229 in step", true},
		{"L['self'].param_groups[0]['lr'] == 0.01", true},
		{"self.step == 0                                           # self.step += 1  # ork/wt-train/explore/attr_step.py:13 in forward (HINT: torch.compile considers integer attributes of the nn.Module to be static. If you are observing recompilation, you might want to make this integer dynamic using torch._dynamo.config.allow_unspec_int_on_nn_module = True, or convert this integer into a tensor.)", false},
		{"G['K'] == 0                                                   # return x + K  # mp/rec9/ints.py:24 in g", false},
	} {
		if got := autoDynamicScalar(ClassifyGuard(c.guard), c.guard); got != c.want {
			t.Errorf("%q (%+v): %v, want %v", c.guard, ClassifyGuard(c.guard), got, c.want)
		}
	}
}

package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/guard"
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
	p.each(func(rank int, _ RankStat) { got[rank] = p.records(rank) })
	for rank, n := range want {
		if st, ok := p.stat(rank); got[rank] != n || !ok || st.N != n || p.records(rank) != n {
			t.Errorf("rank %d: %d records (each) / %+v (stat), want %d", rank, got[rank], st, n)
		}
	}
	for _, rank := range []int{0, 4, 6, 61, 64, 999, -2} {
		if st, ok := p.stat(rank); ok || p.records(rank) != 0 {
			t.Errorf("rank %d has no record, stat gives %+v", rank, st)
		}
	}
	// the earliest record by input line is the last noted (lines count down): compile 6 for rank 5
	if st, _ := p.stat(5); st.First.Compile != 6 || st.Last.Compile != 0 {
		t.Errorf("rank 5 first %v last %v, want compile 6 first (line 94) and 0 last (line 100)", st.First, st.Last)
	}
	if snap := p.Snapshot(); len(snap) != 5 || snap[1000].N != 2 {
		t.Errorf("snapshot %v", snap)
	}
}

// A record whose numbers do not fit a cell (a compile id or input line past 32 bits) moves every rank to the map
// (wide): what each rank holds, and the choice of its first and last record, are the same as with the cells.
func TestPerRankWide(t *testing.T) {
	big := 1 << 40
	recs := []*logparse.Record{
		{Rank: 3, CompileID: logparse.CompileID{Autograd: -1, Frame: 1, Compile: 2}, FirstLine: 50},
		{Rank: -1, CompileID: logparse.NoCompileID, FirstLine: 7},
		{Rank: 3, CompileID: logparse.NoCompileID, FirstLine: 10},
		{Rank: 3, CompileID: logparse.CompileID{Autograd: -1, Frame: big, Compile: 0}, FirstLine: 60},
		{Rank: 3, CompileID: logparse.CompileID{Autograd: -1, Frame: 0, Compile: 1}, FirstLine: 40},
		{Rank: 5, CompileID: logparse.CompileID{Autograd: -1, Frame: 0, Compile: 1}, FirstLine: big},
		{Rank: 1000, CompileID: logparse.CompileID{Autograd: -1, Frame: 2, Compile: 0}, FirstLine: 3},
	}
	var p perRank
	for _, r := range recs {
		p.note(r)
	}
	p.addExp(3, 1)
	if !p.wide || len(p.dense) != 0 {
		t.Fatalf("not wide: %+v", p)
	}
	want := map[int]RankStat{
		-1:   {N: 1, First: logparse.NoCompileID, Last: logparse.NoCompileID},
		3:    {N: 4, Exp: 1, First: logparse.CompileID{Autograd: -1, Frame: 0, Compile: 1}, Last: logparse.CompileID{Autograd: -1, Frame: big}},
		5:    {N: 1, First: logparse.CompileID{Autograd: -1, Compile: 1}, Last: logparse.CompileID{Autograd: -1, Compile: 1}},
		1000: {N: 1, First: logparse.CompileID{Autograd: -1, Frame: 2}, Last: logparse.CompileID{Autograd: -1, Frame: 2}},
	}
	if got := p.Snapshot(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("snapshot\n%v\nwant\n%v", got, want)
	}
	// the lines that chose them moved too: a later line with a compile id takes Last
	p.note(&logparse.Record{Rank: 3, CompileID: logparse.CompileID{Autograd: -1, Frame: 9}, FirstLine: 70})
	if st, _ := p.stat(3); st.N != 5 || st.Last.Frame != 9 || st.First.Compile != 1 {
		t.Errorf("rank 3 after a later record: %+v", st)
	}
}

func TestRankSetSorted(t *testing.T) {
	var s RankSet
	if got := s.Sorted(); got == nil || len(got) != 0 {
		t.Errorf("empty set: %#v, want an empty slice", got)
	}
	for _, r := range []int{1023, 3, 63, 0, 64, 3, -1, 512} {
		s.Add(r)
	}
	if got := fmt.Sprint(s.Sorted()); got != "[-1 0 3 63 64 512 1023]" {
		t.Errorf("sorted %s", got)
	}
}

// sourceShape answers what strings.ContainsAny answers of a source for "()" and ".[", whatever its bytes.
func TestSourceShape(t *testing.T) {
	for _, src := range []string{"", "n", "scale", "self.step", "L['x']", "f()", "a.b[0].c(1)", "x\xff(", "\xe2\x80\xa6.", "ünïcode[", "(", "long_source_name_past_eight"} {
		called, reached := sourceShape(src)
		if called != strings.ContainsAny(src, "()") || reached != strings.ContainsAny(src, ".[") {
			t.Errorf("%q: called %v reached %v", src, called, reached)
		}
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
		if got := autoDynamicScalar(guard.Classify(c.guard), c.guard); got != c.want {
			t.Errorf("%q (%+v): %v, want %v", c.guard, guard.Classify(c.guard), got, c.want)
		}
	}
}

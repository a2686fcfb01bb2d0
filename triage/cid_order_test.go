package triage

import (
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/report"
)

// CompileID.Compare (and cidLess, which is it) orders by frame, compile and attempt; two ids that differ only in
// the compiled-autograd id, which only two processes of a rank make (a frame's compile counter never repeats in
// one), are a tie, and the callers here keep the one they saw first. A total order counting the autograd id, as
// logparse's ShapesTraced sort breaks its ties, would change what these show: the test fails if cidLess counts it.
func TestCompileIDTiesKeepFirstSeen(t *testing.T) {
	ca := logparse.CompileID{Autograd: 0, Frame: 1, Compile: 0}     // [!0/1/0]: a process with compiled autograd
	eager := logparse.CompileID{Autograd: -1, Frame: 1, Compile: 0} // [1/0]: the rank's restarted process without
	if c := ca.Compare(eager); c != 0 {
		t.Errorf("[!0/1/0] vs [1/0]: Compare = %d, want a tie", c)
	}
	later := logparse.CompileID{Autograd: -1, Frame: 1, Compile: 0, Attempt: 1}
	if ca.Compare(later) >= 0 || later.Compare(eager) <= 0 || eager.Compare(logparse.CompileID{Autograd: 5, Frame: 0, Compile: 9}) <= 0 {
		t.Error("Compare: not frame, compile, attempt")
	}

	// the earliest compile id of a rank (rankStat.add, the per-rank First a finding's rank divergence names):
	// the first seen of the tie, in either order
	for _, order := range [][2]logparse.CompileID{{ca, eager}, {eager, ca}} {
		st := report.StatN(0)
		st.Add(order[0])
		st.Add(order[1])
		if st.First != order[0] || st.Last != order[0] {
			t.Errorf("add %v, %v: First %v, Last %v, want %v for both", order[0], order[1], st.First, st.Last, order[0])
		}
	}

	// automatic-dynamic candidates of one rank: a tie falls through to the input's name, not the autograd id
	list := []report.AutoFirst{{Cid: eager, Input: "L['y']"}, {Cid: ca, Input: "L['x']"}}
	report.SortAutos(list)
	if list[0].Input != "L['x']" {
		t.Errorf("sortAutos: %q first, want L['x'] (the tie broken by input)", list[0].Input)
	}
}

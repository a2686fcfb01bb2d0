package report

import (
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/guard"
)

// autoDynamicScalar reports a guard on the value of an int or a float that automatic dynamic makes symbolic at its
// first change, as it does a tensor's size, so that first recompile is expected once (a later one on the value the
// recompiled graph was made for refutes it: autoDynamic; the dynamic log, when on, shows which: dynamic_log.go):
//   - an argument of the frame (2.6 "L['n'] == 0", 2.14 "n == 0", "scale == 0.25": testdata/recorded/int-recompiles,
//     2.6 and 2.14.1; a float too, torch's specialize_float being False on both: testdata/recorded/float-arg, where
//     the dynamic log marks L['c'] dynamic after it, and r03_cache_limit's twelve floats recompile once; a float from
//     .item() carried into a resume function as ___stack0 too: gb_recompile's 2.14.1 log marks L['___stack0']
//     dynamic at [4/1]);
//   - an attribute or item reached from one: 2.6's nn.Module int attribute ("L['self'].step == 0", the [0/1]
//     compile logs create_symbol … for L['self'].step), an optimizer's learning rate that an LR scheduler changes
//     ("self.param_groups[0]['lr'] == 0.01", a symbol at the recompile on 2.6 and 2.14.1): testdata/recorded/
//     train-loop.
//
// Not a global (G['K'], a constant each time), a default argument or a call's result, nor an nn.Module int
// attribute whose guard carries torch's hint that it keeps them static: 2.14.1 specialises self.step on every
// value (train-loop 0001, int-recompiles 0001; its dynamic log marks it dynamic and makes no symbol).
func autoDynamicScalar(gc guard.Class, text string) bool {
	if !ScalarClass(gc.Class) || gc.Source == "" {
		return false
	}
	called, reached := sourceShape(gc.Source)
	if called || strings.Contains(gc.Source, "__defaults__") || strings.HasPrefix(strings.TrimSpace(text), "G[") {
		return false
	}
	return !reached || !strings.Contains(text, guard.NNModuleIntStatic)
}

// sourceShape reports whether a guarded source holds a parenthesis (a call's result) and a '.' or '[' (an attribute
// or item reached from an argument): strings.ContainsAny's answers for "()" and ".[", in one pass over its bytes
// (ContainsAny searched the set for each byte, twice, on every recompile record).
func sourceShape(src string) (called, reached bool) {
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', ')':
			called = true
		case '.', '[':
			reached = true
		}
	}
	return called, reached
}

// scalarClass reports a guard class on the value of an int or a float (an argument's, or one from .item() across a
// graph break): the scalars automatic dynamic may make symbolic (autoDynamicScalar), as it does a tensor's size.
func ScalarClass(class string) bool {
	return class == "value_int" || class == "value_float" || class == "stack_float"
}

// autoDynamic counts the first size recompile of each (process, frame, input, dim) as expected, unless a later
// one fails a guard of the graph it compiled on the same dimension (failedOn: the compile id of the graph whose
// guard failed first).
func (d *Details) autoDynamic(g *recompGroup, r *logparse.Record, gc guard.Class, failedOn string, in *strs) {
	ak := autoKey{rank: r.Rank, pid: r.PID, dim: gc.Dim, input: procInput(r, in)}
	if af := g.autoOf(ak); af != nil {
		// an exact value the graph was compiled for ("expected 9, actual 11", "k == 1"), not a range guard a
		// dynamic dimension may carry
		exact := ScalarClass(gc.Class) && gc.Old != "" || gc.Old != "" && gc.New != ""
		var buf [32]byte
		if !af.refuted && exact && failedOn != "" && failedOn == string(af.Cid.Append(buf[:0])) {
			af.refuted = true
			g.ranks.addExp(af.Rank, -1)
		}
		if CidLess(r.CompileID, af.Cid) {
			af.Cid, af.detail, af.new = r.CompileID, gc.Detail, in.of(gc.New)
		}
		return
	}
	g.addAuto(ak, AutoFirst{Cid: r.CompileID, detail: gc.Detail, Rank: r.Rank, pid: r.PID, Input: ak.input,
		class: gc.Class, Src: gc.Source, new: in.of(gc.New), dim: gc.Dim})
	g.ranks.addExp(r.Rank, 1)
}

// maxAutoScan is how many first recompiles a group scans for a key (one a process and dimension: a node's ranks)
// before it keeps a map of them: a scan of a few is cheaper than hashing a key with a string in it.
const maxAutoScan = 16

// autoOf is the group's first recompile on ak, nil when none (valid until the next addAuto).
func (g *recompGroup) autoOf(ak autoKey) *AutoFirst {
	if g.autoIdx != nil {
		if i, ok := g.autoIdx[ak]; ok {
			return &g.auto[i]
		}
		return nil
	}
	for i := range g.auto {
		if af := &g.auto[i]; af.Rank == ak.rank && af.pid == ak.pid && af.dim == ak.dim && af.Input == ak.input {
			return af
		}
	}
	return nil
}

// addAuto notes the first recompile on ak.
func (g *recompGroup) addAuto(ak autoKey, af AutoFirst) {
	g.auto = append(growTo(g.auto, maxAutoScan), af) // past maxAutoScan, append doubles it
	if g.autoIdx == nil && len(g.auto) > maxAutoScan {
		g.autoIdx = make(map[autoKey]int, 2*len(g.auto))
		for i, x := range g.auto {
			g.autoIdx[autoKey{rank: x.Rank, pid: x.pid, input: x.Input, dim: x.dim}] = i
		}
	}
	if g.autoIdx != nil {
		g.autoIdx[ak] = len(g.auto) - 1
	}
}

// cidLess is CompileID.Compare's order (logparse/record.go). Ids that differ only in the compiled-autograd id are
// ties, not ordered by it as logparse's ShapesTraced sort (logparse/trace/shapes.go) orders its map keys: the callers here
// keep the id they saw first on a tie, and counting the autograd id would change which one a report shows
// (cid_order_test.go).
func CidLess(a, b logparse.CompileID) bool { return a.Compare(b) < 0 }

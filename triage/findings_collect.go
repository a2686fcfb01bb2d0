package triage

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// What the aggregator collects for findings beyond the counts contract: per rank, how many records each break,
// skip and recompile group has and the compile id of its earliest record (rank agreement, diff), and the
// recompiles grouped by function and classified guard (findings). The hooks run under the aggregator's lock.

// rankStat is what one rank contributed to one finding.
type rankStat struct {
	N     int                // records
	Exp   int                // of which expected (automatic dynamic's first recompile of a dimension)
	First logparse.CompileID // compile id of the earliest record (by input line)
	Last  logparse.CompileID // compile id of the latest record
	line  int
	last  int
}

// perRank is keyed by rank (-1: a single process without rank). Every record of a finding notes its rank, so
// the usual ranks (0 to denseRanks-1) are a slice indexed by rank, not a map: one allocation for a job's ranks
// and no hashing per record; ranks past them (a thousand-rank job) go to a map. The zero value is ready.
type perRank struct {
	solo  rankStat   // rank -1; N == 0: none
	dense []rankStat // index rank; N == 0: the rank has no record
	more  map[int]*rankStat
}

// denseRanks bounds the slice of perRank (ranks 0 to 63).
const denseRanks = 64

// at is the rank's stat, nil when it has no record.
func (p *perRank) at(rank int) *rankStat {
	var st *rankStat
	switch {
	case rank == -1:
		st = &p.solo
	case rank >= 0 && rank < len(p.dense):
		st = &p.dense[rank]
	case rank >= 0 && rank < denseRanks:
		return nil
	default:
		return p.more[rank]
	}
	if st.N == 0 {
		return nil
	}
	return st
}

// slot is the rank's stat, added (N == 0) when it has none.
func (p *perRank) slot(rank int) *rankStat {
	var st *rankStat
	switch {
	case rank == -1:
		st = &p.solo
	case rank >= 0 && rank < denseRanks:
		if rank >= len(p.dense) {
			if rank >= cap(p.dense) { // 8 ranks at first (a node), doubling
				p.dense = slices.Grow(p.dense, min(max(rank+1, 2*cap(p.dense), 8), denseRanks)-len(p.dense))
			}
			p.dense = p.dense[:rank+1]
		}
		st = &p.dense[rank]
	default:
		if st = p.more[rank]; st == nil {
			if p.more == nil {
				p.more = map[int]*rankStat{}
			}
			st = &rankStat{}
			p.more[rank] = st
		}
	}
	return st
}

// len is the number of ranks with a record.
func (p *perRank) len() int {
	n := 0
	p.each(func(int, *rankStat) { n++ })
	return n
}

// each calls fn for every rank with a record (-1 and the dense ranks in order, then the others in no order).
func (p *perRank) each(fn func(rank int, st *rankStat)) {
	if p.solo.N > 0 {
		fn(-1, &p.solo)
	}
	for i := range p.dense {
		if p.dense[i].N > 0 {
			fn(i, &p.dense[i])
		}
	}
	for r, st := range p.more {
		fn(r, st)
	}
}

func (p *perRank) note(r *logparse.Record) {
	st := p.slot(r.Rank)
	if st.N == 0 {
		*st = rankStat{First: r.CompileID, line: r.FirstLine, Last: r.CompileID, last: r.FirstLine}
	} else {
		if (r.CompileID.Valid() && !st.First.Valid()) || (r.CompileID.Valid() == st.First.Valid() && r.FirstLine < st.line) {
			st.First, st.line = r.CompileID, r.FirstLine
		}
		if (r.CompileID.Valid() && !st.Last.Valid()) || (r.CompileID.Valid() == st.Last.Valid() && r.FirstLine > st.last) {
			st.Last, st.last = r.CompileID, r.FirstLine
		}
	}
	st.N++
}

// rankSet is a set of ranks: a bit per rank below 64, a map for the others (a set noted on every record). The
// zero value is ready.
type rankSet struct {
	low  uint64
	more map[int]bool
}

func (s *rankSet) add(rank int) {
	if rank >= 0 && rank < 64 {
		s.low |= 1 << rank
		return
	}
	if s.more == nil {
		s.more = map[int]bool{}
	}
	s.more[rank] = true
}

// sorted lists the ranks in order (a new slice, never nil).
func (s *rankSet) sorted() []int {
	out := make([]int, 0, bits.OnesCount64(s.low)+len(s.more))
	for low := s.low; low != 0; low &= low - 1 {
		out = append(out, bits.TrailingZeros64(low))
	}
	if len(s.more) > 0 {
		for r := range s.more {
			out = append(out, r)
		}
		slices.Sort(out)
	}
	return out
}

// statN is a rankStat of n records whose compile ids are not known.
func statN(n int) rankStat {
	return rankStat{N: n, First: logparse.NoCompileID, Last: logparse.NoCompileID, line: 1 << 30}
}

// add counts one record with a compile id (ordered by compile id where input lines are not known).
func (st *rankStat) add(cid logparse.CompileID) {
	st.N++
	if !cid.Valid() {
		return
	}
	if !st.First.Valid() || cidLess(cid, st.First) {
		st.First = cid
	}
	if !st.Last.Valid() || cidLess(st.Last, cid) {
		st.Last = cid
	}
}

func (p *perRank) snapshot() map[int]rankStat {
	out := make(map[int]rankStat, p.len())
	p.each(func(rank int, st *rankStat) { out[rank] = *st })
	return out
}

// groupKey identifies a recompile group: the user's function (resume functions folded, with the resume line),
// the guard class of the first failure and the guarded input.
type groupKey struct {
	fn, file      string
	resume        int
	class, source string
}

// autoKey identifies one dimension of one input of one frame in one process: automatic dynamic marks it dynamic
// after its first recompile, so only that first one is expected.
type autoKey struct {
	rank, pid int
	input     string
	dim       int
}

type autoFirst struct {
	cid    logparse.CompileID
	detail string
	rank   int
	// the process (rank, pid, input: autoKey's) and what was guarded: the dynamic log of compile cid says whether
	// the recompiled graph made it symbolic (dynamic_log.go)
	pid             int
	input           string
	class, src, new string
	dim             int
	dyn             dynVerdict // set on the snapshot's copies
	marked          bool       // and whether automatic dynamic marked src dynamic there
	byTrace         bool       // and whether a TORCH_TRACE file is what showed it (not the dynamic log)
	// refuted: a later guard failure of the graph that recompile compiled (cid) is on the same input and
	// dimension: that graph specialised it again (dynamic=False, or an int automatic dynamic does not take), so
	// the recompile was no automatic dynamic
	refuted bool
}

// recompGroup is the recompiles of one function on one guard class and input.
type recompGroup struct {
	key      groupKey
	rawFn    string // as Dynamo named the frame (torch_dynamo_resume_in_step_at_10)
	fnLine   int    // first line of the frame
	userFile string // 2.14: the line of code the guard came from
	userLine int
	records  int
	ranks    perRank
	auto     []autoFirst          // one per autoKey, in the order met (autoOf)
	autoIdx  map[autoKey]int      // auto's index by key, once it holds more than maxAutoScan
	classes  []GuardClass         // distinct by Detail
	guards   []string             // distinct first-failure texts
	evidence []Evidence           // of the first records
	cids     []logparse.CompileID // distinct, the first maxGroupCIDs (a scan: no set of them)
}

const (
	maxGroupClasses  = 16
	maxGroupGuards   = 8
	maxGroupCIDs     = 64
	maxGroupEvidence = 16
)

// details is the aggregator's extra state (zero value ready).
type details struct {
	groups map[groupKey]*recompGroup
	shapes shapeLog              // what the dynamic log showed of each compile (dynamic_log.go)
	guards map[string]GuardClass // classify's memo
	folds  map[string]folded     // fold's memo
}

// classify memoises ClassifyGuard and FoldFunction for this aggregator: the same guard texts and resume
// functions recur on every rank, recompile and run. The memo is bounded (a run with many distinct guards starts
// over past it).
func (d *details) classify(guard string) GuardClass {
	guard = StripGuardComment(guard) // all ClassifyGuard reads: 2.14's comments name each call site
	if gc, ok := d.guards[guard]; ok {
		return gc
	}
	guard = strings.Clone(guard) // the class's strings are parts of it: kept, they must not keep the record
	gc := ClassifyGuard(guard)
	if d.guards == nil {
		d.guards = make(map[string]GuardClass, 256)
	} else if len(d.guards) >= maxGuardMemo {
		clear(d.guards) // keeps its buckets: no growing again from 256
	}
	d.guards[guard] = gc
	return gc
}

func (d *details) fold(name string) (string, int) {
	if f, ok := d.folds[name]; ok {
		return f.fn, f.line
	}
	name = strings.Clone(name)
	fn, line := FoldFunction(name)
	if d.folds == nil {
		d.folds = make(map[string]folded, 64)
	} else if len(d.folds) >= maxGuardMemo {
		clear(d.folds)
	}
	d.folds[name] = folded{fn, line}
	return fn, line
}

const maxGuardMemo = 8192

// cause picks the failure that says what changed, and its class. torch lists one failed guard per cache entry,
// the newest first, and each names only the first guard of that entry that failed. For one tensor, torch checks
// its dispatch keys (device), dtype, device index, requires_grad, ndim, sizes, then strides, in that order
// (TensorCheck::check_verbose, torch/csrc/dynamo/guards.cpp): an entry that failed on a later one matched the
// earlier ones. So a float32 call of a new size, which fails an entry compiled for Half on the dtype and a float32
// entry on the size, changed the size — the dtype was one an entry had. Of the failures on one tensor, the one
// furthest along that order says what is new; otherwise the newest entry's (torch's first line) stands.
func (d *details) cause(fs []logparse.GuardFailure) (logparse.GuardFailure, GuardClass) {
	if len(fs) == 0 {
		return logparse.GuardFailure{}, d.classify("")
	}
	best, bestClass := 0, d.classify(fs[0].Guard)
	for i := 1; i < len(fs); i++ {
		gc := d.classify(fs[i].Guard)
		if gc.Source != "" && gc.Source == bestClass.Source && tensorCheckOrder[gc.Class] > tensorCheckOrder[bestClass.Class] &&
			tensorCheckOrder[bestClass.Class] > 0 {
			best, bestClass = i, gc
		}
	}
	return fs[best], bestClass
}

// tensorCheckOrder is where torch's check of a tensor looks at each class of property (cause); 0: not a
// tensor property.
var tensorCheckOrder = map[string]int{"device": 1, "dtype": 2, "requires_grad": 4, "rank": 5, "size": 6, "stride": 7}

// recompile files one recompile record under its group; in interns what the group keeps of it (retain.go).
// seen, the groups the records of one function (one recompile summary) went to before, is looked in first: their
// key differs only in the guard's class and source, so they are found without hashing the key's five strings.
func (d *details) recompile(r *logparse.Record, in *strs, seen *[]groupRef) {
	rc := r.Recompile
	first, gc := d.cause(rc.Failures)
	var g *recompGroup
	for _, x := range *seen {
		if x.class == gc.Class && x.source == gc.Source {
			g = x.g
			break
		}
	}
	if g == nil {
		g = d.group(rc, first, gc, in)
		if len(*seen) < maxSeenGroups {
			*seen = append(*seen, groupRef{g.key.class, g.key.source, g})
		}
	}
	g.records++
	g.ranks.note(r)
	if len(g.evidence) < maxGroupEvidence {
		e := evidenceOf(r, rc.File, rc.Line)
		e.File, e.Input = in.of(e.File), in.of(e.Input)
		g.evidence = append(g.evidence, e)
	}
	if len(g.cids) < maxGroupCIDs && !slices.Contains(g.cids, r.CompileID) {
		g.cids = append(g.cids, r.CompileID)
	}
	if first.Guard != "" && len(g.guards) < maxGroupGuards && !containsString(g.guards, first.Guard) {
		g.guards = append(g.guards, strings.Clone(first.Guard))
	}
	if len(g.classes) < maxGroupClasses && !hasDetail(g.classes, gc.Detail) {
		g.classes = append(g.classes, gc)
	}
	if gc.Class == "size" || autoDynamicScalar(gc, first.Guard) {
		d.autoDynamic(g, r, gc, first.CompileID, in)
	}
}

// groupRef is a recompile group by the guard class and source of its key (details.recompile).
type groupRef struct {
	class, source string
	g             *recompGroup
}

// maxSeenGroups bounds the groups a recompile summary remembers for recompile (a few guard classes a function).
const maxSeenGroups = 8

// group is the recompile group of rc whose cause is first (of class gc), made at need.
func (d *details) group(rc *logparse.Recompile, first logparse.GuardFailure, gc GuardClass, in *strs) *recompGroup {
	fn, resume := d.fold(rc.Function)
	// fn, class and source are owned (fold, classify); the file is interned when a group is made
	k := groupKey{fn: fn, file: rc.File, resume: resume, class: gc.Class, source: gc.Source}
	if d.groups == nil {
		d.groups = map[groupKey]*recompGroup{}
	}
	g := d.groups[k]
	if g == nil {
		k.file = in.of(rc.File)
		g = &recompGroup{key: k, rawFn: in.of(rc.Function), fnLine: rc.Line}
		if f, ok := lastFrame(first.Extra); ok {
			g.userFile, g.userLine = in.of(f.File), f.Line
		}
		d.groups[k] = g
	}
	return g
}

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
func autoDynamicScalar(gc GuardClass, guard string) bool {
	if !scalarClass(gc.Class) || gc.Source == "" ||
		strings.ContainsAny(gc.Source, "()") || strings.Contains(gc.Source, "__defaults__") ||
		strings.HasPrefix(strings.TrimSpace(guard), "G[") {
		return false
	}
	return !strings.ContainsAny(gc.Source, ".[") || !strings.Contains(guard, nnModuleIntStatic)
}

// scalarClass reports a guard class on the value of an int or a float (an argument's, or one from .item() across a
// graph break): the scalars automatic dynamic may make symbolic (autoDynamicScalar), as it does a tensor's size.
func scalarClass(class string) bool {
	return class == "value_int" || class == "value_float" || class == "stack_float"
}

// nnModuleIntStatic is the hint 2.14's guard on an nn.Module int attribute carries (torch/_dynamo/variables/
// builder.py: is_int_specialization_case): torch keeps the value static.
const nnModuleIntStatic = "considers integer attributes of the nn.Module to be static"

// autoDynamic counts the first size recompile of each (process, frame, input, dim) as expected, unless a later
// one fails a guard of the graph it compiled on the same dimension (failedOn: the compile id of the graph whose
// guard failed first).
func (d *details) autoDynamic(g *recompGroup, r *logparse.Record, gc GuardClass, failedOn string, in *strs) {
	ak := autoKey{rank: r.Rank, pid: r.PID, dim: gc.Dim, input: procInput(r, in)}
	if af := g.autoOf(ak); af != nil {
		// an exact value the graph was compiled for ("expected 9, actual 11", "k == 1"), not a range guard a
		// dynamic dimension may carry
		exact := scalarClass(gc.Class) || gc.Old != "" && gc.New != ""
		var buf [32]byte
		if !af.refuted && exact && failedOn != "" && failedOn == string(af.cid.Append(buf[:0])) {
			af.refuted = true
			g.ranks.at(af.rank).Exp--
		}
		if cidLess(r.CompileID, af.cid) {
			af.cid, af.detail, af.new = r.CompileID, gc.Detail, in.of(gc.New)
		}
		return
	}
	g.addAuto(ak, autoFirst{cid: r.CompileID, detail: gc.Detail, rank: r.Rank, pid: r.PID, input: ak.input,
		class: gc.Class, src: gc.Source, new: in.of(gc.New), dim: gc.Dim})
	g.ranks.at(r.Rank).Exp++
}

// maxAutoScan is how many first recompiles a group scans for a key (one a process and dimension: a node's ranks)
// before it keeps a map of them: a scan of a few is cheaper than hashing a key with a string in it.
const maxAutoScan = 16

// autoOf is the group's first recompile on ak, nil when none (valid until the next addAuto).
func (g *recompGroup) autoOf(ak autoKey) *autoFirst {
	if g.autoIdx != nil {
		if i, ok := g.autoIdx[ak]; ok {
			return &g.auto[i]
		}
		return nil
	}
	for i := range g.auto {
		if af := &g.auto[i]; af.rank == ak.rank && af.pid == ak.pid && af.dim == ak.dim && af.input == ak.input {
			return af
		}
	}
	return nil
}

// addAuto notes the first recompile on ak.
func (g *recompGroup) addAuto(ak autoKey, af autoFirst) {
	g.auto = append(g.auto, af)
	if g.autoIdx == nil && len(g.auto) > maxAutoScan {
		g.autoIdx = make(map[autoKey]int, 2*len(g.auto))
		for i, x := range g.auto {
			g.autoIdx[autoKey{rank: x.rank, pid: x.pid, input: x.input, dim: x.dim}] = i
		}
	}
	if g.autoIdx != nil {
		g.autoIdx[ak] = len(g.auto) - 1
	}
}

func cidLess(a, b logparse.CompileID) bool {
	if a.Frame != b.Frame {
		return a.Frame < b.Frame
	}
	if a.Compile != b.Compile {
		return a.Compile < b.Compile
	}
	return a.Attempt < b.Attempt
}

// lastFrame reads the deepest `File "x.py", line N, in f` of 2.14's folded "User stack trace:" lines.
func lastFrame(extra string) (logparse.Frame, bool) {
	var out logparse.Frame
	ok := false
	for _, l := range splitLines(extra) {
		if f, good := parseFileLine(l); good {
			out, ok = f, true
		}
	}
	return out, ok
}

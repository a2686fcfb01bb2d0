package report

import (
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/numshape"
)

// What the aggregator collects for findings beyond the counts contract: per rank, how many records each break,
// skip and recompile group has and the compile id of its earliest record (rank agreement, diff), and the
// recompiles grouped by function and classified guard (findings). The hooks run under the aggregator's lock.

// groupKey identifies a recompile group: the user's function (resume functions folded, with the resume line),
// the guard class of the first failure and the guarded input.
type groupKey struct {
	Fn, File      string
	Resume        int
	Class, Source string
}

// autoKey identifies one dimension of one input of one frame in one process: automatic dynamic marks it dynamic
// after its first recompile, so only that first one is expected.
type autoKey struct {
	rank, pid int
	input     string
	dim       int
}

type AutoFirst struct {
	Cid    logparse.CompileID
	detail string
	Rank   int
	// the process (rank, pid, input: autoKey's) and what was guarded: the dynamic log of compile cid says whether
	// the recompiled graph made it symbolic (dynamic_log.go)
	pid             int
	Input           string
	class, Src, new string
	dim             int
	Dyn             dynVerdict // set on the snapshot's copies
	Marked          bool       // and whether automatic dynamic marked src dynamic there
	ByTrace         bool       // and whether a TORCH_TRACE file is what showed it (not the dynamic log)
	// refuted: a later guard failure of the graph that recompile compiled (cid) is on the same input and
	// dimension: that graph specialised it again (dynamic=False, or an int automatic dynamic does not take), so
	// the recompile was no automatic dynamic
	refuted bool
}

// recompGroup is the recompiles of one function on one guard class and input.
type recompGroup struct {
	Key      groupKey
	RawFn    string // as Dynamo named the frame (torch_dynamo_resume_in_step_at_10)
	FnLine   int    // first line of the frame
	UserFile string // 2.14: the line of code the guard came from
	UserLine int
	Records  int
	ranks    perRank
	auto     []AutoFirst          // one per autoKey, in the order met (autoOf)
	autoIdx  map[autoKey]int      // auto's index by key, once it holds more than maxAutoScan
	Classes  []guard.Class        // distinct by Detail
	Guards   []string             // distinct first-failure texts
	Evidence []Evidence           // of the first records
	Cids     []logparse.CompileID // distinct, the first maxGroupCIDs (a scan: no set of them)
}

const (
	maxGroupClasses  = 16
	maxGroupGuards   = 8
	maxGroupCIDs     = 64
	maxGroupEvidence = 16
)

// details is the aggregator's extra state (zero value ready).
type Details struct {
	groups map[groupKey]*recompGroup
	shapes shapeLog               // what the dynamic log showed of each compile (dynamic_log.go)
	guards map[string]*guardShape // classify's memo, by the guard's shape
	texts  map[string]guard.Class // and by the text, for a guard its shape does not classify (guardShape.whole)
	// classify's scratch: the shape key and runs of the guard it reads
	shapeKey  []byte
	shapeRuns []numshape.Run
	folds     map[string]folded // fold's memo
}

// classify memoises guard.Classify and guard.FoldFunction for this aggregator: the same guard texts and resume
// functions recur on every rank, recompile and run, and guards of one shape with values of their own on every
// recompile (guards_shape.go). The memo is bounded (a run with many distinct shapes starts over past it).
func (d *Details) classify(text string) guard.Class {
	text = memoText(text)
	var ok bool
	d.shapeKey, d.shapeRuns, ok = guardShapeKey(text, d.shapeKey, d.shapeRuns)
	s, hit := d.guards[string(d.shapeKey)]
	if ok && hit && !s.whole {
		return s.of(text, d.shapeRuns)
	}
	if !ok || hit { // classified whole: memoised by the text
		if gc, ok := d.texts[text]; ok {
			return gc
		}
		text = strings.Clone(text) // the class's strings are parts of it: kept, they must not keep the record
		gc := guard.Classify(text)
		d.texts = remember(d.texts, text, gc)
		return gc
	}
	text = strings.Clone(text)
	s = newShape(text, d.shapeRuns)
	d.guards = remember(d.guards, string(d.shapeKey), s)
	return s.gc
}

// memoText is what guard.Classify reads of a guard's text, which classify memoises: all of it but 2.14's comment,
// which names each call site, unless it is an object id's code line (an Enum member), the nn.Module int hint or a
// closure cell's hint (it names the variable).
func memoText(text string) string {
	if g := guard.StripGuardComment(text); (!strings.HasPrefix(g, "___check_obj_id(") || guard.Code(text) == "") &&
		!strings.Contains(text, guard.NNModuleIntStatic) && !guard.IsClosureCell(g) {
		return g
	}
	return text
}

// remember puts v in the memo m under k, made at need, emptied when it holds maxGuardMemo (it keeps its buckets:
// no growing again from 256).
func remember[V any](m map[string]V, k string, v V) map[string]V {
	if m == nil {
		m = make(map[string]V, 256)
	} else if len(m) >= maxGuardMemo {
		clear(m)
	}
	m[k] = v
	return m
}

func (d *Details) fold(name string) (string, int) {
	if f, ok := d.folds[name]; ok {
		return f.fn, f.line
	}
	name = strings.Clone(name)
	fn, line := guard.FoldFunction(name)
	d.folds = remember(d.folds, name, folded{fn, line})
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
func (d *Details) cause(fs []logparse.GuardFailure) (logparse.GuardFailure, guard.Class) {
	if len(fs) == 0 {
		return logparse.GuardFailure{}, d.classify("")
	}
	best, bestClass := 0, d.classify(fs[0].Guard)
	// only a failure on a tensor's property gives way to a later one: past any other, the rest are not classified
	for i := 1; i < len(fs) && tensorCheckOrder[bestClass.Class] > 0; i++ {
		gc := d.classify(fs[i].Guard)
		if gc.Source != "" && gc.Source == bestClass.Source && tensorCheckOrder[gc.Class] > tensorCheckOrder[bestClass.Class] {
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
func (d *Details) recompile(r *logparse.Record, in *strs, seen *[]groupRef) {
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
			*seen = append(*seen, groupRef{g.Key.Class, g.Key.Source, g})
		}
	}
	g.Records++
	g.ranks.note(r)
	if len(g.Evidence) < maxGroupEvidence {
		e := evidenceOf(r, rc.File, rc.Line)
		e.File, e.Input = in.of(e.File), in.of(e.Input)
		g.Evidence = append(growTo(g.Evidence, maxGroupEvidence), e)
	}
	if len(g.Cids) < maxGroupCIDs && !slices.Contains(g.Cids, r.CompileID) {
		g.Cids = append(growTo(g.Cids, maxGroupCIDs), r.CompileID)
	}
	if first.Guard != "" && len(g.Guards) < maxGroupGuards && !ContainsString(g.Guards, first.Guard) {
		g.Guards = append(growTo(g.Guards, maxGroupGuards), strings.Clone(first.Guard))
	}
	if len(g.Classes) < maxGroupClasses && !hasDetail(g.Classes, gc.Detail) {
		g.Classes = append(growTo(g.Classes, maxGroupClasses), gc)
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
func (d *Details) group(rc *logparse.Recompile, first logparse.GuardFailure, gc guard.Class, in *strs) *recompGroup {
	fn, resume := d.fold(rc.Function)
	// fn, class and source are owned (fold, classify); the file is interned when a group is made
	k := groupKey{Fn: fn, File: rc.File, Resume: resume, Class: gc.Class, Source: gc.Source}
	if d.groups == nil {
		d.groups = map[groupKey]*recompGroup{}
	}
	g := d.groups[k]
	if g == nil {
		k.File = in.of(rc.File)
		g = &recompGroup{Key: k, RawFn: in.of(rc.Function), FnLine: rc.Line}
		if f, ok := lastFrame(first.Extra); ok {
			g.UserFile, g.UserLine = in.of(f.File), f.Line
		}
		d.groups[k] = g
	}
	return g
}

// lastFrame reads the deepest `File "x.py", line N, in f` of 2.14's folded "User stack trace:" lines.
func lastFrame(extra string) (logparse.Frame, bool) {
	var out logparse.Frame
	ok := false
	for _, l := range SplitLines(extra) {
		if f, good := parseFileLine(l); good {
			out, ok = f, true
		}
	}
	return out, ok
}

// folded is a resume function folded into its function and line (guard.FoldFunction), memoised by fold.
type folded struct {
	fn   string
	line int
}

package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/numshape"
)

// What the dynamic log (TORCH_LOGS=dynamic) says about the compile a recompile made. Automatic dynamic's first
// recompile of a size or an int/float argument is expected once only because the recompiled graph makes it
// symbolic; under torch.compile(dynamic=False), mark_static or automatic dynamic turned off the first new value
// recompiles just the same, the graph keeps it static and every further value compiles again. The recompile
// record cannot tell them apart; the dynamic log of the recompiled compile can: it logs create_env when it is on,
// and create_symbol for each input it makes symbolic (testdata/recorded/dynamic-false, 2.6 and 2.14.1). A
// TORCH_TRACE file shows the same of each compile it holds whole: its create_symbol events, and ShapesTraced
// (logparse/trace/shapes.go); what it shows is kept apart from the dynamic log's, so that a report says which
// showed it.

// dynVerdict is what the dynamic log shows of one recompile automatic dynamic would have absorbed.
type dynVerdict uint8

const (
	dynNotLogged dynVerdict = iota // the dynamic log was not on for the recompiled compile, or the input does not show it
	DynSymbol                      // the recompiled compile made it a symbol: automatic dynamic did its work
	DynUnclear                     // the log was on, but neither names a symbol for it nor rules one out
	DynStatic                      // the log was on and the compile made no symbol for it: the graph kept it static
)

// shapeKey is one compile (restart attempts together) of one process.
type shapeKey struct {
	rank, pid                int
	input                    string // only where rank and pid do not tell the process (procInput; traceInput)
	autograd, frame, compile int
	trace                    bool // what a TORCH_TRACE file shows
}

// shapeCompile is what the dynamic log showed of one compile: it was on (the key is there), and what it made
// symbolic or marked dynamic.
type shapeCompile struct {
	symbols map[string]bool // "x[0]", "n": the sources of create_symbol, named as guards name them (guard.NormalizeSource)
	values  map[string]bool // the int values it made symbols for: a size equal to one may share it (duck sizing)
	marked  map[string]bool // "x": what automatic dynamic marked dynamic (2.14's pgo line; no symbol is made under mark_static)
	full    bool            // past maxShapeEntries: what it does not hold is not known
	// anonymous: an unbacked symbol whose line names no input (a stack summary instead): it may be one's
	anonymous bool
	// partial: a trace's compile whose ShapesTraced is not (yet) seen: the file does not hold it whole, or does
	// not show that its torch traces symbols; a symbol it shows counts, no symbol says nothing
	partial bool
}

// shapeLog is the dynamic log's compiles (under the aggregator's lock; zero value ready).
type shapeLog struct {
	compiles map[shapeKey]*shapeCompile
	full     bool // past maxShapeCompiles: a compile not held is not known
}

const (
	maxShapeCompiles = 1 << 16
	maxShapeEntries  = 4096
)

// procInput is the input that tells a record's process apart: its name where neither a rank nor a pid does
// (autoDynamic keys a process so too).
func procInput(r *logparse.Record, in *strs) string {
	if r.PID == 0 || r.Rank < 0 {
		return in.of(r.Input)
	}
	return ""
}

// traceInput is the input that tells a trace record's process apart: none where the envelope's pid does, so
// that the trace of a run and its text log (the same process, the same pid: the trace + text dedupe's premise)
// meet on one key.
func traceInput(r *logparse.Record, in *strs) string {
	if r.PID == 0 {
		return in.of(r.Input)
	}
	return ""
}

// shape notes one dynamic-log record, or one shape record of a TORCH_TRACE file.
func (d *Details) shape(r *logparse.Record, in *strs) {
	ev, cid := r.Shape, r.CompileID
	if ev == nil || !cid.Valid() {
		return
	}
	s := &d.shapes
	k := shapeKey{rank: r.Rank, pid: r.PID, input: procInput(r, in), autograd: cid.Autograd, frame: cid.Frame, compile: cid.Compile}
	if r.Source == logparse.FromTrace {
		k.input, k.trace = traceInput(r, in), true
	}
	c := s.compiles[k]
	if c == nil {
		if len(s.compiles) >= maxShapeCompiles {
			s.full = true
			return
		}
		if s.compiles == nil {
			s.compiles = map[shapeKey]*shapeCompile{}
		}
		c = &shapeCompile{partial: k.trace}
		s.compiles[k] = c
	}
	add := func(m *map[string]bool, v string) {
		if *m == nil {
			*m = map[string]bool{}
		}
		if len(*m) >= maxShapeEntries {
			c.full = true
			return
		}
		(*m)[in.of(v)] = true
	}
	switch ev.Event {
	case logparse.SymbolCreated:
		if ev.Source == "" {
			c.anonymous = true
			return
		}
		add(&c.symbols, symbolSource(ev.Source))
		if ev.Value != "" && numshape.IsInt(ev.Value) {
			add(&c.values, ev.Value)
		}
	case logparse.MarkedDynamic:
		add(&c.marked, guard.NormalizeSource(ev.Source))
	case logparse.ShapesTraced:
		c.partial = false
	}
}

// symbolSource names a create_symbol source as a guard names what it guards: L['x'].size()[0] → x[0],
// L['n'] → n.
func symbolSource(src string) string {
	if m := guard.SizeExpr.FindStringSubmatch(src); m != nil && strings.HasSuffix(src, m[0]) && m[2] == "size()" {
		return guard.NormalizeSource(strings.TrimSuffix(src, m[0])+m[1]) + "[" + m[3] + "]"
	}
	return guard.NormalizeSource(src)
}

// what is the input dimension or scalar of an automatic-dynamic candidate: "x[0]", "n".
func (af *AutoFirst) What() string {
	if af.class == "size" {
		return af.Src + "[" + strconv.Itoa(af.dim) + "]"
	}
	return af.Src
}

// verdict is what the dynamic log, or else a TORCH_TRACE file, shows of af's recompiled compile (af.cid), whether
// automatic dynamic marked the input dynamic there, and whether the trace is what shows it: a symbol either shows
// settles it, then the dynamic log's word, then the trace's.
func (s *shapeLog) verdict(af *AutoFirst) (dyn dynVerdict, marked, byTrace bool) {
	k := shapeKey{rank: af.Rank, pid: af.pid, input: af.Input, autograd: af.Cid.Autograd, frame: af.Cid.Frame, compile: af.Cid.Compile}
	dyn, marked = s.verdictAt(k, af)
	if dyn == DynSymbol || dyn == DynStatic {
		return dyn, marked, false
	}
	k.trace = true
	if af.pid != 0 {
		k.input = "" // traceInput
	}
	switch t, _ := s.verdictAt(k, af); {
	case t == DynSymbol, t == DynStatic, t == DynUnclear && dyn == dynNotLogged:
		return t, marked, true
	}
	return dyn, marked, false
}

// verdictAt is what the compile of key k shows of af.
func (s *shapeLog) verdictAt(k shapeKey, af *AutoFirst) (dynVerdict, bool) {
	c := s.compiles[k]
	if c == nil {
		if s.full {
			return DynUnclear, false
		}
		return dynNotLogged, false
	}
	marked := c.marked[af.Src]
	switch {
	case c.symbols[af.What()]:
		return DynSymbol, marked
	case c.partial:
		return dynNotLogged, marked
	case c.full, c.anonymous, af.Src == "":
		return DynUnclear, marked
	case af.class == "size" && (af.new == "" || af.new == "0" || af.new == "1" || c.values[af.new]):
		// a new size not shown, 0 or 1 (which torch specialises, symbol or not), or the value of a symbol the
		// compile made for another input, which this one may share (duck sizing logs no line of its own at INFO)
		return DynUnclear, marked
	}
	return DynStatic, marked
}

// sortAutos orders automatic-dynamic candidates by rank, compile id, input, process and what (map order is none).
func SortAutos(list []AutoFirst) {
	slices.SortFunc(list, func(a, b AutoFirst) int {
		if a.Rank != b.Rank {
			return cmp.Compare(a.Rank, b.Rank)
		}
		if CidLess(a.Cid, b.Cid) {
			return -1
		}
		if CidLess(b.Cid, a.Cid) {
			return 1
		}
		return cmp.Or(strings.Compare(a.Input, b.Input), cmp.Compare(a.pid, b.pid), strings.Compare(a.What(), b.What()),
			cmp.Compare(a.Dyn, b.Dyn))
	})
}

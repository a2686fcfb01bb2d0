package report

import (
	"sort"

	"github.com/torchtriage/torchtriage/logparse"
)

// CompileSummary is the frame compiles of one function that TORCH_TRACE recorded (compilation_metrics).
type CompileSummary struct {
	Function string  `json:"function"`
	File     string  `json:"file"`
	Line     int     `json:"line"`
	Compiles int     `json:"compiles"`
	Graphs   int     `json:"graphs"` // compiles that produced a graph (not failed, graph_op_count known and > 0)
	Failed   int     `json:"failed"`
	Seconds  float64 `json:"seconds"` // total entire_frame_compile_time_s
	Max      float64 `json:"max_seconds"`
	Ranks    []int   `json:"ranks"`
	rankSet  map[int]bool
}

type compileKey struct {
	function, file string
	line           int
}

func (a *Aggregator) AddCompile(r *logparse.Record) {
	c := r.Compile
	k := compileKey{c.Function, c.File, c.Line}
	s := a.compiles[k]
	if s == nil {
		s = &CompileSummary{Function: c.Function, File: c.File, Line: c.Line, rankSet: map[int]bool{}}
		a.compiles[k] = s
	}
	s.Compiles++
	s.Seconds += c.Seconds
	s.Max = max(s.Max, c.Seconds)
	switch {
	case c.Failed:
		s.Failed++
	case c.GraphOps > 0:
		s.Graphs++
		a.graphs[r.Rank]++
	}
	if r.Rank >= 0 {
		s.rankSet[r.Rank] = true
	}
}

// compileSummaries lists the compiles per function, slowest first, and the most graphs one process compiled.
func (a *Aggregator) CompileSummaries() ([]*CompileSummary, int) {
	out := make([]*CompileSummary, 0, len(a.compiles))
	for _, s := range a.compiles {
		s.Ranks = SortedInts(s.rankSet)
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { // one order whatever the map's: frames of one name in one time are many
		x, y := out[i], out[j]
		if x.Seconds != y.Seconds {
			return x.Seconds > y.Seconds
		}
		if x.Function != y.Function {
			return x.Function < y.Function
		}
		return x.File < y.File || x.File == y.File && x.Line < y.Line
	})
	graphs := -1
	if len(out) > 0 {
		graphs = 0
	}
	for _, n := range a.graphs {
		graphs = max(graphs, n)
	}
	return out, graphs
}

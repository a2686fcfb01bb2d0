package report

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// Counts is the counts contract of `torchtriage report` (fixtures/README.md says how to count).
type Counts struct {
	GraphBreaks        int `json:"graph_breaks"`
	GraphBreakRecords  int `json:"graph_break_records"`
	Recompiles         int `json:"recompiles"`
	RecompileLimitHits int `json:"recompile_limit_hits"`
	CudagraphSkips     int `json:"cudagraph_skips"`
	CompileErrors      int `json:"compile_errors"`
	// CudagraphPartitions are the graph partitions Inductor left out of CUDA graphs (2.9+; not the one partition
	// of a compile that never asked for CUDA graphs).
	CudagraphPartitions int `json:"cudagraph_partitions"`
	// CudagraphRerecords are the re-recordings of CUDA-graph trees: recordings of a function ("Recording
	// function=F, cuda_graph_id=N") after failed checks of its earlier recordings (RerecordSummary). JSON
	// cudagraph_rerecordings: the counts contract's cudagraph_rerecords is the checks' count (below).
	CudagraphRerecords int `json:"cudagraph_rerecordings"`
	// CudagraphRerecordChecks are the "Re-recording function=F, reason=R" lines: one per existing recording
	// that did not match a call (torch checks them all on every call: 1+2+3+4 lines for 4 recordings). JSON
	// cudagraph_rerecords, the fixtures' ground truth's count of those records (../shared/fixtures/README.md).
	CudagraphRerecordChecks int `json:"cudagraph_rerecords"`
	// CudagraphRerecordsUnknown: checks failed for a function whose Recording lines the input lacks, so how many
	// re-recordings there were is not known; CudagraphRerecords counts only those shown.
	CudagraphRerecordsUnknown bool `json:"cudagraph_rerecords_unknown,omitempty"`
	// RuntimeErrors are processes that died of an uncaught exception that is not a compile error (CUDA OOM,
	// NCCL, the program's own); one per dying process.
	RuntimeErrors int `json:"runtime_errors"`
}

var HexAddr = regexp.MustCompile(`0x[0-9a-fA-F]+`)

// BreakKey identifies a distinct graph break: site plus gb_type (or the reason with hex addresses blanked).
type BreakKey struct {
	File string
	Line int
	What string
}

// KeyOf returns the distinct-break key of a graph-break payload.
func KeyOf(g *logparse.GraphBreak) BreakKey {
	what := g.GBType
	if what == "" {
		what = g.Reason
		if strings.Contains(what, "0x") {
			what = HexAddr.ReplaceAllString(what, "0x…")
		}
	}
	return BreakKey{File: g.File, Line: g.Line, What: what}
}

func (k BreakKey) site() string { return k.File + ":" + strconv.Itoa(k.Line) }

// eventKey identifies one compile event of one process, to count an event seen in both text and trace once.
type eventKey struct {
	rank int
	pid  int
	cid  logparse.CompileID
	kind logparse.Kind
}

func eventKeyOf(r *logparse.Record) eventKey {
	return eventKey{rank: r.Rank, pid: r.PID, cid: r.CompileID, kind: r.Kind}
}

// sortedInts returns the keys of a map in order.
func SortedInts[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

func SortedStrings[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// RerecordsText words the CUDA-graph re-recordings of counts: "cudagraph re-recordings 3", or, where the input
// shows failed checks but not the recordings that followed, that the number is not known.
func RerecordsText(c Counts) string {
	if c.CudagraphRerecordsUnknown {
		if c.CudagraphRerecords > 0 {
			return fmt.Sprintf("cudagraph re-recordings %d or more (%d failed re-record checks, some without their Recording lines)",
				c.CudagraphRerecords, c.CudagraphRerecordChecks)
		}
		return fmt.Sprintf("cudagraph re-recordings not known (%d failed re-record checks, no Recording lines)", c.CudagraphRerecordChecks)
	}
	return fmt.Sprintf("cudagraph re-recordings %d", c.CudagraphRerecords)
}

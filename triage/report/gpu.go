package report

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// PartitionSummary is one cause of non-cudagraphable graph partitions: the reason Inductor gave for the ops it
// left out of CUDA graphs, at one site (the user frame of the op's stack when the log shows it).
type PartitionSummary struct {
	Reason     string `json:"reason"` // "DeviceCopy ops", "dynamic shape ops", … ("" when the log shows no op line)
	Op         string `json:"op,omitempty"`
	IR         string `json:"ir,omitempty"`
	FX         string `json:"fx,omitempty"` // the FX node, e.g. "prims.device_put.default(arg1_1, cuda:0)"
	File       string `json:"file,omitempty"`
	Line       int    `json:"line,omitempty"`
	Function   string `json:"function,omitempty"`
	Partitions int    `json:"partitions"` // non-cudagraphable partitions with this cause
	Records    int    `json:"records"`    // "Created N graph partitions" messages that named it
	// WholeGraphs: of those, the messages with no cudagraphable partition ("0 cudagraphable"): that graph runs
	// without CUDA graphs altogether
	WholeGraphs int        `json:"whole_graphs,omitempty"`
	Ranks       []int      `json:"ranks"`
	CompileIDs  []string   `json:"compile_ids"`
	Evidence    []Evidence `json:"-"`
	rankSet     map[int]bool
	cidSet      map[string]bool
	ranks       perRank
}

// RerecordSummary is one cause of CUDA-graph re-recording: the function and the reason. CUDA-graph trees check
// every existing recording of a function on each call and log one "Re-recording function=F, reason=R" line per
// recording that does not match (docs: gpu-cuda-graphs-2.11.md §3): those lines are failed checks, not
// recordings. A re-recording is a "Recording function=F, cuda_graph_id=N" line after such lines; it is filed
// under the reason of the last check that failed before it.
type RerecordSummary struct {
	Function string   `json:"function"`
	Reason   string   `json:"reason"`
	Inputs   []string `json:"inputs,omitempty"` // inputs whose data pointer changed
	// Rerecords are the recordings that followed failed checks with this reason (from the Recording lines).
	Rerecords int `json:"rerecords"`
	// Records are the "Re-recording" lines: failed checks of an existing recording against a call.
	Records int `json:"records"`
	// Unknown: some of these checks are of a function whose Recording lines the input lacks, so how many
	// recordings followed them is not known (Rerecords counts the ones shown).
	Unknown  bool       `json:"rerecords_unknown,omitempty"`
	Ranks    []int      `json:"ranks"`
	Evidence []Evidence `json:"-"`
	rankSet  map[int]bool
	ranks    perRank // per rank: re-recordings (failed checks where none are known)
}

// recordKey is one function of CUDA-graph trees in one process: checks and recordings pair up within it.
type recordKey struct {
	input    string
	rank     int
	pid      int
	cid      logparse.CompileID
	function string
}

// recordEvent is a "Recording function=" line (check == nil) or a "Re-recording function=" line.
type recordEvent struct {
	key   recordKey
	line  int
	check *RerecordSummary
	ev    Evidence
}

type partitionKey struct {
	reason, file string
	line         int
}

// addPartitions counts a "Created N graph partitions" message (not one of a compile that never asked for CUDA
// graphs) and files its non-cudagraphable partitions by reason and site.
func (a *Aggregator) addPartitions(r *logparse.Record, ra *rankAgg) {
	p := r.Parts
	if p.CudagraphsOff() || p.NonCudagraphable == 0 {
		return
	}
	if ra != nil {
		ra.c.CudagraphPartitions += p.NonCudagraphable
	}
	a.partitionCount += p.NonCudagraphable
	type cause struct {
		op logparse.PartitionOp
		n  int
	}
	var causes []cause
	for _, part := range p.Parts {
		if part.Cudagraphable {
			continue
		}
		if len(part.Ops) == 0 {
			causes = append(causes, cause{n: 1})
		}
		for i, op := range part.Ops {
			causes = append(causes, cause{op: op, n: map[bool]int{true: 1}[i == 0]})
		}
	}
	if len(causes) == 0 { // the message without its partition lines
		causes = append(causes, cause{n: p.NonCudagraphable})
	}
	for _, c := range causes {
		f := c.op.UserFrame
		k := partitionKey{c.op.Reason, f.File, f.Line}
		s := a.partitions[k]
		if s == nil {
			s = &PartitionSummary{Reason: c.op.Reason, Op: c.op.Name, IR: c.op.IR, FX: c.op.FX, File: f.File, Line: f.Line,
				Function: f.Func, rankSet: map[int]bool{}, cidSet: map[string]bool{}}
			a.partitions[k] = s
		}
		s.Partitions += c.n
		s.Records++
		if p.Cudagraphable == 0 {
			s.WholeGraphs++
		}
		s.ranks.note(r)
		if r.Rank >= 0 {
			s.rankSet[r.Rank] = true
		}
		if cid := r.CompileID.String(); cid != "" {
			s.cidSet[cid] = true
		}
		if len(s.Evidence) < MaxEvidence {
			s.Evidence = append(s.Evidence, evidenceOf(r, f.File, f.Line))
		}
	}
}

// addRerecord files one failed check ("Re-recording function=…") of a CUDA-graph tree; which recording
// followed it is settled when the report is made (rerecordings).
func (a *Aggregator) addRerecord(r *logparse.Record, ra *rankAgg) {
	rr := r.Rerecord
	k := rr.Function + "\x00" + rr.Reason
	s := a.rerecords[k]
	if s == nil {
		s = &RerecordSummary{Function: a.names.of(rr.Function), Reason: strings.Clone(rr.Reason), rankSet: map[int]bool{}}
		a.rerecords[k] = s
	}
	s.Records++
	if r.Rank >= 0 {
		s.rankSet[r.Rank] = true
	}
	if rr.Input != "" && len(s.Inputs) < 8 && !ContainsString(s.Inputs, rr.Input) {
		s.Inputs = append(s.Inputs, strings.Clone(rr.Input))
	}
	ev := a.evidenceAt(r, "", 0)
	if len(s.Evidence) < MaxEvidence {
		s.Evidence = append(s.Evidence, ev)
	}
	if ra != nil {
		ra.c.CudagraphRerecordChecks++
	}
	a.recordings = append(a.recordings, recordEvent{key: a.recordKeyOf(r), line: r.FirstLine, check: s, ev: ev})
}

// addRecording notes one recording of a CUDA graph ("Recording function=…, cuda_graph_id=N").
func (a *Aggregator) addRecording(r *logparse.Record) {
	a.recordings = append(a.recordings, recordEvent{key: a.recordKeyOf(r), line: r.FirstLine, ev: a.evidenceAt(r, "", 0)})
}

func (a *Aggregator) recordKeyOf(r *logparse.Record) recordKey {
	return recordKey{input: a.names.of(r.Input), rank: r.Rank, pid: r.PID, cid: r.CompileID, function: a.names.of(r.Rerecord.Function)}
}

// rerecordings pairs each function's failed checks with the recording that followed them, in input order: a
// recording after one or more failed checks is a re-recording (of the reason of the last one); a recording
// after none is a new one (the first, a backward, a new path of the tree); checks no recording followed were
// refused (the re-record limit) or the log ended. It sets each summary's Rerecords, Unknown and per-rank counts
// and returns the re-recordings per rank.
func (a *Aggregator) rerecordings() map[int]int {
	for _, s := range a.rerecords {
		s.Rerecords, s.Unknown, s.ranks = 0, false, perRank{}
	}
	evs := slices.Clone(a.recordings)
	sort.SliceStable(evs, func(i, j int) bool {
		if evs[i].key.input != evs[j].key.input {
			return evs[i].key.input < evs[j].key.input
		}
		return evs[i].line < evs[j].line
	})
	last := map[recordKey]*recordEvent{} // the last failed check since the function's last recording
	recorded := map[recordKey]bool{}     // the function has a Recording line
	perRank := map[int]int{}
	for i := range evs {
		e := &evs[i]
		if e.check != nil {
			last[e.key] = e
			continue
		}
		recorded[e.key] = true
		if c := last[e.key]; c != nil {
			s := c.check
			s.Rerecords++
			s.ranks.note(&logparse.Record{Rank: e.key.rank, CompileID: e.key.cid, FirstLine: e.line})
			perRank[e.key.rank]++
			delete(last, e.key)
		}
	}
	for i := range evs {
		if e := &evs[i]; e.check != nil && !recorded[e.key] {
			e.check.Unknown = true
		}
	}
	for _, s := range a.rerecords {
		if s.Rerecords == 0 { // no re-recording shown: its ranks are where the checks failed
			for _, ev := range s.Evidence {
				s.ranks.note(&logparse.Record{Rank: ev.Rank, FirstLine: ev.InputLine})
			}
		}
	}
	return perRank
}

// gpuSummaries fills the report's partition and re-record lists and counts.
func (a *Aggregator) gpuSummaries(rep *Report) {
	rep.CudagraphPartitions = []*PartitionSummary{}
	for _, s := range a.partitions {
		s.Ranks, s.CompileIDs = SortedInts(s.rankSet), SortedStrings(s.cidSet)
		rep.CudagraphPartitions = append(rep.CudagraphPartitions, s)
	}
	sort.Slice(rep.CudagraphPartitions, func(i, j int) bool {
		x, y := rep.CudagraphPartitions[i], rep.CudagraphPartitions[j]
		if x.Partitions != y.Partitions {
			return x.Partitions > y.Partitions
		}
		if x.Reason != y.Reason {
			return x.Reason < y.Reason
		}
		return x.File < y.File || x.File == y.File && x.Line < y.Line
	})
	rep.Counts.CudagraphPartitions = a.partitionCount
	rep.CudagraphRerecords = []*RerecordSummary{}
	perRank := a.rerecordings()
	for _, s := range a.rerecords {
		s.Ranks = SortedInts(s.rankSet)
		rep.CudagraphRerecords = append(rep.CudagraphRerecords, s)
		rep.Counts.CudagraphRerecords += s.Rerecords
		rep.Counts.CudagraphRerecordChecks += s.Records
		rep.Counts.CudagraphRerecordsUnknown = rep.Counts.CudagraphRerecordsUnknown || s.Unknown
	}
	for rank, n := range perRank {
		if rank >= 0 {
			c := rep.PerRank[strconv.Itoa(rank)]
			c.CudagraphRerecords = n
			rep.PerRank[strconv.Itoa(rank)] = c
		}
	}
	sort.Slice(rep.CudagraphRerecords, func(i, j int) bool {
		x, y := rep.CudagraphRerecords[i], rep.CudagraphRerecords[j]
		if x.Rerecords != y.Rerecords {
			return x.Rerecords > y.Rerecords
		}
		if x.Records != y.Records {
			return x.Records > y.Records
		}
		return x.Function+x.Reason < y.Function+y.Reason
	})
	rep.runtimeEvents = append([]ErrorSummary{}, a.runtime...)
	rep.RuntimeErrors = groupErrors(a.runtime)
	rep.Counts.RuntimeErrors = len(a.runtime)
}

// WarningSummary is one GPU warning (by topic) the log shows: distinct sizes recorded by CUDA graphs, pending
// backwards, the TF32 hint, an empty manual CUDA-graph capture.
type WarningSummary struct {
	Topic    string     `json:"topic"`
	Message  string     `json:"message"`
	Sizes    int        `json:"distinct_sizes,omitempty"` // the most the distinct-sizes warning reported
	Records  int        `json:"records"`
	Ranks    []int      `json:"ranks"`
	Evidence []Evidence `json:"-"`
	rankSet  map[int]bool
}

func (a *Aggregator) addWarning(r *logparse.Record) {
	w := r.Warning
	if w.Topic == logparse.WarnOther {
		return
	}
	k := w.Topic.String()
	s := a.warnings[k]
	if s == nil {
		s = &WarningSummary{Topic: k, Message: w.Message, rankSet: map[int]bool{}}
		a.warnings[k] = s
	}
	s.Records++
	s.Sizes = max(s.Sizes, w.Sizes)
	if r.Rank >= 0 {
		s.rankSet[r.Rank] = true
	}
	if len(s.Evidence) < MaxEvidence {
		s.Evidence = append(s.Evidence, evidenceOf(r, w.File, w.Line))
	}
}

func (a *Aggregator) warningSummaries(rep *Report) {
	rep.GPUWarnings = []*WarningSummary{}
	for _, s := range a.warnings {
		s.Ranks = SortedInts(s.rankSet)
		rep.GPUWarnings = append(rep.GPUWarnings, s)
	}
	sort.Slice(rep.GPUWarnings, func(i, j int) bool { return rep.GPUWarnings[i].Topic < rep.GPUWarnings[j].Topic })
}

package report

import (
	"slices"
	"sort"
	"strconv"

	"github.com/torchtriage/torchtriage/logparse"
)

// Schema names the JSON schema of `torchtriage report`. v2 (from v1): torch_version holds only a version
// an input states (else null) and the format-era guess moved to log_format; evidence and verdict.state are new;
// counts gained cudagraph_partitions, cudagraph_rerecords and runtime_errors; runtime_errors, the CUDA-graph
// lists and gpu_warnings are new lists, and exceptions keeps only interrupts, launcher summaries and cut
// tracebacks. Within v2: counts.cudagraph_rerecords is the fixtures' ground truth, every "Re-recording" record
// (a failed check of an earlier recording; for two days of 2026-11 it was the re-recordings, renamed
// cudagraph_rerecord_checks the checks), and counts.cudagraph_rerecordings the re-recordings (a "Recording
// function=" after failed checks: what the text reports), evidence gained
// cudagraph_skips_logged, cudagraph_partitions_logged and cudagraph_rerecords_logged (a count of 0 of that kind
// means none only where it is true), compile_off (what turned torch.compile off: nothing compiled) and
// logs_rejected (torch rejected the run's TORCH_LOGS: nothing was logged), no_graph_compiled (frames compiled, no
// graph: none of the program ran compiled), and skip entries their file, line and
// function; ranks gained the ranks only the probes or torchrun show (as evidence.ranks), without per_rank counts;
// recompile_limit_hits gained raised (torch raised FailOnRecompileLimitHit: the call failed, no eager fallback),
// cudagraph_partitions whole_graphs (graphs with no cudagraphable partition at all), and per_rank_unknown the ranks
// of ranks that per_rank has no counts of (no log record names them), with known_from (probe, world_size,
// launcher), probe_frames_compiled (the frames the rank's probe counted compiled) and probe_counts (the quantities
// rank agreement compares that its probe counted none of, those it leaves not known, and why), and ddp_splits the
// graphs DDPOptimizer split at DDP's bucket boundaries (the ddp_graphs log's split messages, or TORCH_TRACE's
// optimize_ddp_split_graph: compile_id, submodules, names, records, ranks), by design and in no count;
// counts_uncounted (why none of the counts but runtime_errors stands, whatever their zeros: no_torch_output,
// nothing_compiled; and the text's words) is new, absent where they stand. Within v2 since 2026-12 (issue 34): hang
// (whether the run hung, where each rank waits: state hung|not_hung|unknown, cause, summary, basis, ranks with
// rank, waiting_in, site, since_s, compiling, and mismatch; absent where nothing shows a wait), verdict.state hung,
// the finding kind hang, and first_failure a rank's own failure (a kill or abort torchrun's table shows among them),
// never a collective that lost its peer, null where DETAIL's mismatch check raised on every rank; evidence.skipped
// (the directory entries not read: path, why), evidence.partial for a file changed while it was read, and
// compiled_at's dynamic, mode and fullgraph (the torch.compile call's, where given). Added, not
// renamed: the name stays v2 for the readers that check it (docs/report.md).
const Schema = "torchtriage.report/v2"

// Report is the counts contract of `torchtriage report`; later fields extend it, these are never renamed.
type Report struct {
	Schema       string         `json:"schema"`
	Inputs       []string       `json:"inputs"`
	TorchVersion *string        `json:"torch_version"` // stated by an input (trace, launcher frame) or the probe; else null
	LogFormat    string         `json:"log_format"`    // the torch versions whose log format the records show ("2.9+"), a guess
	Evidence     ReportEvidence `json:"evidence"`
	// Ranks are the ranks the inputs show: rank prefixes and files, and once analysed the probes' and torchrun's
	// (evidence.ranks, the text header's); PerRank has counts only of ranks some record names: a rank known only
	// from the probe or the launcher has none (not known, not 0), and once analysed PerRankUnknown names each such
	// rank with what shows it, so every rank of Ranks is in one of the two.
	Ranks              []int                `json:"ranks"`
	Counts             Counts               `json:"counts"`
	PerRank            map[string]Counts    `json:"per_rank"`
	PerRankUnknown     []RankWithoutRecords `json:"per_rank_unknown"`
	GraphBreaks        []*BreakSummary      `json:"graph_breaks"`
	Recompiles         []*RecompileSummary  `json:"recompiles"`
	RecompileLimitHits []LimitSummary       `json:"recompile_limit_hits"`
	CudagraphSkips     []*SkipSummary       `json:"cudagraph_skips"`
	CompileErrors      []ErrorSummary       `json:"compile_errors"`
	// Compiles are the frame compiles TORCH_TRACE recorded, per function, with their compile time; UniqueGraphs
	// is the most graphs one process compiled (from the trace, else the probe's counters once analysed, as the
	// verdict's; -1 when neither says).
	Compiles     []*CompileSummary `json:"compiles"`
	UniqueGraphs int               `json:"unique_graphs"`
	// RuntimeErrors are processes that died of an uncaught exception that is not a compile error (CUDA OOM,
	// NCCL, DistNetworkError, ValueError "Invalid log settings", the program's own): counts.runtime_errors.
	RuntimeErrors []ErrorSummary `json:"runtime_errors"`
	// Exceptions are exceptions no process died of by itself: interrupts (KeyboardInterrupt, SystemExit,
	// SignalException), torchrun's ChildFailedError summary, tracebacks cut before their exception, and
	// exceptions the program caught, logged and went on after (caught: true).
	Exceptions []ErrorSummary `json:"exceptions"`
	// FirstFailure is the error the others followed from (first_failure.go); null when no process died of one.
	FirstFailure *FirstFailure `json:"first_failure"`
	// CudagraphPartitions are the causes of non-cudagraphable graph partitions; CudagraphRerecords the causes of
	// CUDA-graph re-recording.
	CudagraphPartitions []*PartitionSummary `json:"cudagraph_partitions"`
	CudagraphRerecords  []*RerecordSummary  `json:"cudagraph_rerecords"`
	GPUWarnings         []*WarningSummary   `json:"gpu_warnings"`
	// DDPSplits are the graphs DDPOptimizer split at DDP's bucket boundaries, as the ddp_graphs log or TORCH_TRACE
	// shows them (by design: no count of the contract counts them)
	DDPSplits []*DDPSplitSummary `json:"ddp_splits"`
	// Compile is compile time per rank, phase and frame, and the compile caches' lookups (compile_time.go); nil
	// when no input says anything about them.
	Compile *CompileReport `json:"compile,omitempty"`
	// Serving is what a serving framework's own lines say (vLLM, SGLang: serving.go); nil when there are none
	Serving *Serving `json:"serving,omitempty"`

	// Partial: the input looks cut (pasted text that starts or ends inside a record: a graph-break body or guard
	// failures without their header, a traceback without its exception line, an exception without its
	// traceback), so the counts are what the text shows, not the whole run; PartialReasons say what was cut.
	Partial        bool     `json:"-"`
	PartialReasons []string `json:"-"`

	// one entry per event (the JSON lists group identical ones); nil for a report decoded from JSON
	limitEvents                              []LimitSummary
	errorEvents, exceptEvents, runtimeEvents []ErrorSummary
	Stacks                                   stackLog    `json:"-"` // the stack dumps' places (stopped_stacks.go)
	Hang                                     hangLog     `json:"-"` // what the tracebacks say of collectives (hang_log.go)
	Det                                      *DetailSnap `json:"-"` // per-rank and per-guard detail for Analyze (nil for a report not built by an Aggregator)
}

// Report folds in the held-back trace records (dropping the twins of text events) and returns the summary.
// It can be called again after more records arrive (live runs).
func (a *Aggregator) Report() *Report {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.settle() // what the lane folds is the report's
	if len(a.traceRec) > 0 {
		a.Unseen.into(a.seen)
	}
	for _, r := range a.traceRec {
		k := a.dedupKey(r)
		if a.seen[k] || (r.Kind == logparse.KindCompileError && a.errRanks[r.Rank]) ||
			(r.Kind == logparse.KindException && a.excRanks[r.Rank]) {
			continue
		}
		a.seen[k] = true
		if r.Kind == logparse.KindDDPGraph { // a split only the trace shows (addDDPGraph)
			a.addDDPSplit(r)
			continue
		}
		a.count(r)
	}
	a.traceRec = a.traceRec[:0]
	groups := make(chan []*GroupSnap, 1) // nothing folds from here on: the groups are copied beside the rest
	go func() { groups <- a.det.groupSnaps() }()

	for name, r := range a.nameRanks { // a file's rank, where no line of it says its own
		if !a.prefixed[name] {
			a.ranks[r] = true
		}
	}
	rep := &Report{Schema: Schema, Inputs: append([]string{}, a.inputs...), Ranks: SortedInts(a.ranks),
		PerRank: map[string]Counts{}, Serving: a.serving.report()}
	if a.eraInput != "" {
		a.inputEra[a.eraInput], a.eraInput, a.eraCur = a.inputEra[a.eraInput].Merge(a.eraCur), "", logparse.Era{}
	}
	delete(a.inputEra, "") // the first run's flush of nothing
	rep.LogFormat = LogFormatOf(a.era, a.inputEra)
	if v := a.facts.lines.TorchVersion; v != "" {
		rep.TorchVersion = &v
	} else if v := a.facts.torchVersion; v != "" {
		rep.TorchVersion = &v
	}
	if rep.Inputs == nil {
		rep.Inputs = []string{}
	}
	rep.PartialReasons = SortedStrings(a.cut)
	rep.Partial = len(rep.PartialReasons) > 0
	rep.GraphBreaks = a.distinctBreaks()
	for _, b := range rep.GraphBreaks {
		rep.Counts.GraphBreakRecords += b.Records
	}
	rep.Counts.GraphBreaks = len(rep.GraphBreaks)
	for _, s := range a.recomps {
		s.Ranks = s.rankSet.Sorted()
		rep.Recompiles = append(rep.Recompiles, s)
		rep.Counts.Recompiles += s.Records
	}
	sort.Slice(rep.Recompiles, func(i, j int) bool {
		x, y := rep.Recompiles[i], rep.Recompiles[j]
		if x.Records != y.Records {
			return x.Records > y.Records
		}
		if x.Function != y.Function {
			return x.Function < y.Function
		}
		if x.File != y.File {
			return x.File < y.File
		}
		return x.Line < y.Line
	})
	markRaised(a.limits, a.errors)
	rep.limitEvents = append([]LimitSummary{}, a.limits...)
	rep.RecompileLimitHits = groupLimits(a.limits)
	rep.Counts.RecompileLimitHits = len(a.limits)
	for _, s := range a.skips {
		s.Ranks = SortedInts(s.rankSet)
		rep.CudagraphSkips = append(rep.CudagraphSkips, s)
		rep.Counts.CudagraphSkips += s.Records
	}
	sort.Slice(rep.CudagraphSkips, func(i, j int) bool {
		x, y := rep.CudagraphSkips[i], rep.CudagraphSkips[j]
		if x.Reason != y.Reason {
			return x.Reason < y.Reason
		}
		return x.File < y.File || x.File == y.File && x.Line < y.Line
	})
	rep.errorEvents = append([]ErrorSummary{}, a.errors...)
	rep.CompileErrors = groupErrors(a.errors)
	rep.Counts.CompileErrors = len(a.errors)
	a.perRankCounts(rep.PerRank)
	for _, r := range rep.Ranks {
		if _, ok := rep.PerRank[strconv.Itoa(r)]; !ok {
			rep.PerRank[strconv.Itoa(r)] = Counts{}
		}
	}
	if rep.Recompiles == nil {
		rep.Recompiles = []*RecompileSummary{}
	}
	if rep.CudagraphSkips == nil {
		rep.CudagraphSkips = []*SkipSummary{}
	}
	rep.Compiles, rep.UniqueGraphs = a.CompileSummaries()
	rep.Compile = a.comp.report()
	rep.exceptEvents = append([]ErrorSummary{}, a.excepts...)
	rep.Stacks = a.stacks.clone()
	rep.Exceptions = groupErrors(a.excepts)
	rep.Hang = a.hang.clone()
	rep.FirstFailure = a.fails.first(a.hang.Children)
	a.gpuSummaries(rep)
	markPeerGone(rep.runtimeEvents, rep.FirstFailure)
	markPeerGone(rep.RuntimeErrors, rep.FirstFailure)
	a.warningSummaries(rep)
	rep.DDPSplits = a.ddpSplitSummaries()
	rep.Det = a.det.Snapshot(rep, <-groups)
	rep.Evidence = a.evidence(rep)
	return rep
}

// distinctBreaks lists distinct breaks: full/duplicate records by (site, gb_type or reason), plus Tensor.item()
// warnings whose site no graph-break record has.
func (a *Aggregator) distinctBreaks() []*BreakSummary {
	out := make([]*BreakSummary, 0, len(a.breaks)+len(a.items))
	var sites map[string]bool // the breaks' sites, only where a warning's site needs them
	if len(a.items) > 0 {
		sites = map[string]bool{}
	}
	for _, b := range a.breaks {
		if sites != nil {
			for _, s := range breakSites(b) {
				sites[s] = true
			}
		}
		out = append(out, b)
	}
	for site, b := range a.items {
		if !sites[site] {
			out = append(out, b)
		}
	}
	InParallel(len(out), 256, func(from, to int) { // each summary's own lists: thousands in a big run
		for _, b := range out[from:to] {
			b.finish()
		}
	})
	sortBreaks(out)
	return out
}

// LimitEvents returns every limit hit, one per event (RecompileLimitHits groups identical ones).
func (r *Report) LimitEvents() []LimitSummary { return eventsOr(r.limitEvents, r.RecompileLimitHits) }

// ErrorEvents returns every compile error, one per dying process.
func (r *Report) ErrorEvents() []ErrorSummary { return eventsOr(r.errorEvents, r.CompileErrors) }

// RuntimeErrorEvents returns every runtime error, one per dying process.
func (r *Report) RuntimeErrorEvents() []ErrorSummary {
	return eventsOr(r.runtimeEvents, r.RuntimeErrors)
}

// ExceptionEvents returns every other uncaught exception, one per event.
func (r *Report) ExceptionEvents() []ErrorSummary { return eventsOr(r.exceptEvents, r.Exceptions) }

func eventsOr[T any](events, grouped []T) []T {
	if events != nil {
		return events
	}
	return grouped
}

// RankWithoutRecords is a rank the analysis knows (evidence.ranks: the probes', the launcher's) that no log record
// names: per_rank has no counts of it, since what it logged is not known (not 0: its output may carry no rank
// prefix, or be missing from the capture). KnownFrom says what shows it; ProbeFrames is the frames its probe
// counted compiled (Dynamo's counters), nil where no probe of it recorded them; Probe what they counted of each
// quantity rank agreement compares (nil where no probe of it recorded them): what rank agreement compares it on,
// and what its "Per rank" line shows as its probe's.
type RankWithoutRecords struct {
	Rank        int          `json:"rank"`
	KnownFrom   []string     `json:"known_from"`
	ProbeFrames *int         `json:"probe_frames_compiled,omitempty"`
	Probe       *ProbeCounts `json:"probe_counts,omitempty"`
}

// ProbeNone reports whether u's probe counted none of quantity q (QuantityGraphBreaks, …; "" for a count no probe
// counts, runtime errors): a 0 shown as its probe's.
func (u RankWithoutRecords) ProbeNone(q string) bool {
	return u.Probe != nil && q != "" && slices.Contains(u.Probe.None, q)
}

// ProbeCounts is what the probes of a rank no log record names counted (probeCounted: Dynamo's counters) of the
// quantities rank agreement compares (QuantityGraphBreaks, …): None those they counted none of (0, as its probe
// counted: rank agreement compares it on them), NotKnown the others, Counted what they counted that leaves each
// of NotKnown unknown ("3 frame compiles, which may be recompiles").
type ProbeCounts struct {
	None     []string `json:"none"`
	NotKnown []string `json:"not_known,omitempty"`
	Counted  []string `json:"counted,omitempty"`
}

func (p *ProbeCounts) Equal(q *ProbeCounts) bool {
	return p == nil && q == nil || p != nil && q != nil && slices.Equal(p.None, q.None) && slices.Equal(p.NotKnown, q.NotKnown) &&
		slices.Equal(p.Counted, q.Counted)
}

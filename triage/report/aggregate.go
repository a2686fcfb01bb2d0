package report

import (
	"sync"

	"github.com/torchtriage/torchtriage/logparse"
)

// Aggregator folds records into the counts contract and the per-event lists. It is safe for concurrent use:
// many inputs are parsed at once and feed one aggregator.
type Aggregator struct {
	mu     sync.Mutex
	inputs []string
	era    logparse.Era
	ranks  map[int]bool
	// nameRanks: the rank each input's name or log tree gives (AddInput); prefixed: the inputs whose lines carry
	// rank prefixes (AddFacts). A name's rank is a rank seen only where its lines carry none (Report).
	nameRanks map[string]int
	prefixed  map[string]bool
	// inputEra: the log format each input's records show (logFormat): inputs of disjoint formats are named apart
	inputEra map[string]logparse.Era
	eraInput string // the input of the run of records eraCur merges (not yet in inputEra)
	eraCur   logparse.Era
	breaks   map[BreakKey]*BreakSummary
	items    map[string]*BreakSummary // Tensor.item() warnings by site
	// sameBreak: the distinct break of each remembered break text (Record.SameBreak) met so far, so a text seen
	// before skips its key and the lookup by it
	sameBreak map[int32]*BreakSummary
	recomps   map[recompKey]*RecompileSummary
	limits    []LimitSummary
	skips     map[skipKey]*SkipSummary
	errors    []ErrorSummary
	excepts   []ErrorSummary // other uncaught exceptions (launcher, ValueError, …): not compile errors
	excRanks  map[int]bool   // ranks whose text shows such an exception
	runtime   []ErrorSummary // processes that died of an exception that is not a compile error
	// CUDA graphs (gpu.go)
	partitions     map[partitionKey]*PartitionSummary
	partitionCount int
	rerecords      map[string]*RerecordSummary
	recordings     []recordEvent // CUDA-graph recordings and failed checks, paired when the report is made
	warnings       map[string]*WarningSummary
	ddpSplits      map[string]*DDPSplitSummary // DDPOptimizer's splits by compile id and submodules (ddp_split.go)
	det            Details                     // per-rank and per-guard detail for findings (findings_collect.go)
	compiles       map[compileKey]*CompileSummary
	graphs         map[int]int // graphs compiled per rank (TORCH_TRACE)
	perRank        map[int]*rankAgg
	last           *rankAgg // perRank[lastRank], the rank of the record before (count)
	lastRank       int
	lastInput      string            // names.of the input of the record before (evidenceOwned)
	seen           map[eventKey]bool // text events, to drop their trace twins
	Unseen         keyLog            // text events not yet in seen: it is only read when a trace is too
	textOnly       bool              // no trace will come (TextOnly): unseen is not kept
	errRanks       map[int]bool      // ranks whose text shows a fatal compile error (a traceback has no compile id)
	traceRec       []*logparse.Record
	facts          facts           // what the inputs showed beyond the counts (evidence.go)
	comp           *compileAgg     // compile time and cache lookups (compile_time.go)
	fails          failureLog      // fatal errors in arrival order, for the first failure (first_failure.go)
	cut            map[string]bool // why the input looks cut (records whose head or end was not pasted)
	names          strs            // interned names: what the aggregator keeps of a record is copied out (retain.go)
	readOnce       []ReadOnce      // paths not read: another input holds what they hold (Load)
	skipped        []Skipped       // entries of the named directories not read: not regular files (Load)
	stacks         stackLog        // where the faulthandler stack dumps show each process (stopped_stacks.go)
	hang           hangLog         // what the tracebacks say of collectives (hang_log.go)
	serving        servingLog      // serving frameworks' compile lines (serving.go)
	// aside: recompile and dynamic-log records are folded on the lane's goroutine (lane.go), with its own intern
	// table and last input
	aside     bool
	lane      *recompLane
	laneNames strs
	laneInput string
}

type recompKey struct {
	function, file string
	line           int
}

type rankAgg struct {
	items map[string]bool // sites of the rank's Tensor.item() warnings (its distinct breaks: the breaks' ranks)
	c     Counts
}

// NewAggregator returns an empty aggregator.
func NewAggregator() *Aggregator {
	return &Aggregator{
		ranks: map[int]bool{}, breaks: map[BreakKey]*BreakSummary{}, items: map[string]*BreakSummary{},
		sameBreak: map[int32]*BreakSummary{},
		recomps:   map[recompKey]*RecompileSummary{}, skips: map[skipKey]*SkipSummary{}, perRank: map[int]*rankAgg{},
		compiles: map[compileKey]*CompileSummary{}, graphs: map[int]int{},
		seen: map[eventKey]bool{}, errRanks: map[int]bool{}, excRanks: map[int]bool{},
		nameRanks: map[string]int{}, prefixed: map[string]bool{},
		partitions: map[partitionKey]*PartitionSummary{}, rerecords: map[string]*RerecordSummary{},
		warnings: map[string]*WarningSummary{}, comp: newCompileAgg(), fails: failureLog{rootCause: -1}, cut: map[string]bool{},
	}
}

// maxPartialReasons bounds the distinct reasons kept for Report.PartialReasons.
const maxPartialReasons = 8

// noteCut notes why the input of record r looks cut: where several inputs were read, each reason names its input
// ("… (in b.log)"), so a report of several pasted files says which was cut how.
func (a *Aggregator) noteCut(r *logparse.Record) {
	if len(a.cut) >= maxPartialReasons {
		return
	}
	why := r.Cut
	if len(a.inputs) > 1 && r.Input != "" {
		why += " (in " + r.Input + ")"
	}
	a.cut[why] = true
}

// AddInput names an input in the report; rank >= 0 (from its file name or log tree) counts as a rank seen unless
// the input's lines carry rank prefixes of their own (AddFacts: Prefixed), which say whose lines they are.
func (a *Aggregator) AddInput(name string, rank int) {
	a.mu.Lock()
	a.inputs = append(a.inputs, name)
	if rank >= 0 {
		a.nameRanks[name] = rank
	}
	a.mu.Unlock()
}

// AddRank notes a rank seen in the input (records that were not built still show their rank).
func (a *Aggregator) AddRank(rank int) {
	a.mu.Lock()
	a.ranks[rank] = true
	a.mu.Unlock()
}

// TextOnly says no trace record will come (logparse.Found.TextOnly): text events are then not remembered (one
// key each, to drop their trace twins, was the only memory the aggregation kept per record).
func (a *Aggregator) TextOnly() {
	a.mu.Lock()
	a.textOnly = true
	a.mu.Unlock()
}

// Add takes one record. Trace records are held back until Report, so that an event already seen in the text
// log is counted once.
func (a *Aggregator) Add(r *logparse.Record) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.era = a.era.Merge(r.Era)
	if r.Era.Known() {
		if a.inputEra == nil {
			a.inputEra = map[string]logparse.Era{}
		}
		if r.Input != a.eraInput { // records come in runs of one input: one map write per run
			a.inputEra[a.eraInput], a.eraInput = a.inputEra[a.eraInput].Merge(a.eraCur), r.Input
			a.eraCur = logparse.Era{}
		}
		a.eraCur = a.eraCur.Merge(r.Era)
	}
	a.noteFacts(r)
	if r.Cut != "" {
		a.noteCut(r)
	}
	a.stacks.note(r)
	if r.Error != nil {
		a.hang.note(r)
		a.serving.noteError(r) // vLLM's JIT monitor in error mode (serving.go)
	}
	if r.Kind == logparse.KindOther || r.Kind == logparse.KindStack || r.Kind == logparse.KindShapeEnv {
		if r.Rank >= 0 {
			a.ranks[r.Rank] = true
		}
		if r.Kind == logparse.KindShapeEnv {
			a.fold(r)
		}
		return
	}
	if r.Kind == logparse.KindServing { // a serving framework's line (serving.go): no torch count
		a.serving.note(r)
		if r.Rank >= 0 {
			a.ranks[r.Rank] = true
		}
		return
	}
	if r.Kind == logparse.KindDDPGraph { // a message of the ddp_graphs log, or its trace twin (ddp_split.go)
		a.addDDPGraph(r)
		return
	}
	if a.comp.Add(r) {
		return
	}
	if r.Source == logparse.FromTrace {
		a.traceRec = append(a.traceRec, r)
		return
	}
	if !a.textOnly && !warnedOnly(r) {
		a.Unseen.Add(a.dedupKey(r))
	}
	if r.Kind == logparse.KindCompileError {
		a.errRanks[r.Rank] = true
	}
	if r.Kind == logparse.KindException {
		a.excRanks[r.Rank] = true
	}
	a.count(r)
}

// keyLog is a list of keys kept in blocks: appending never copies what is there.
type keyLog struct{ Blocks [][]eventKey }

func (l *keyLog) Add(k eventKey) {
	if n := len(l.Blocks); n == 0 || len(l.Blocks[n-1]) == cap(l.Blocks[n-1]) {
		l.Blocks = append(l.Blocks, make([]eventKey, 0, 4096))
	}
	b := &l.Blocks[len(l.Blocks)-1]
	*b = append(*b, k)
}

// into adds the keys to set and empties the list.
func (l *keyLog) into(set map[eventKey]bool) {
	for _, b := range l.Blocks {
		for _, k := range b {
			set[k] = true
		}
	}
	l.Blocks = nil
}

// warnedOnly says a text record is a break's warning (Tensor.item(), a builtin), not its record: it does not stand
// for the trace's record of the same event, which is counted and hides it (distinctBreaks: one site). Were it the
// twin, the trace's record would be dropped and, hidden by the break's other records at its site, the warning too.
func warnedOnly(r *logparse.Record) bool {
	return r.Kind == logparse.KindGraphBreak && r.Break != nil && (r.Break.Variant == logparse.BreakItemWarning ||
		r.Break.Variant == logparse.BreakBuiltinWarning)
}

func (a *Aggregator) dedupKey(r *logparse.Record) eventKey {
	k := eventKeyOf(r)
	if r.Kind == logparse.KindGraphBreak {
		// several breaks can share a compile id (the item() warning and its record): add the site
		k.cid.Attempt = k.cid.Attempt*100000 + r.Break.Line
	}
	return k
}

func (a *Aggregator) rank(r int) *rankAgg {
	ra := a.perRank[r]
	if ra == nil {
		ra = &rankAgg{items: map[string]bool{}}
		a.perRank[r] = ra
	}
	return ra
}

func (a *Aggregator) count(r *logparse.Record) {
	var ra *rankAgg
	if r.Rank >= 0 {
		if a.last == nil || a.lastRank != r.Rank { // records come in runs of one rank: skip both maps then
			a.ranks[r.Rank] = true
			a.last, a.lastRank = a.rank(r.Rank), r.Rank
		}
		ra = a.last
	}
	switch r.Kind {
	case logparse.KindGraphBreak:
		a.addBreak(r, ra)
	case logparse.KindRecompile:
		if ra != nil {
			ra.c.Recompiles++
		}
		a.fold(r)
	case logparse.KindLimitHit:
		a.limits = append(a.limits, a.limitSummary(r))
		if ra != nil {
			ra.c.RecompileLimitHits++
		}
	case logparse.KindCudagraphSkip:
		a.addSkip(r, ra)
	case logparse.KindCompileError:
		e := a.errorSummary(r)
		a.errors = append(a.errors, e)
		a.fails.events = append(a.fails.events, e)
		if ra != nil {
			ra.c.CompileErrors++
		}
	case logparse.KindException:
		a.excepts = append(a.excepts, a.errorSummary(r))
		a.fails.noteSummary(r)
	case logparse.KindRuntimeError:
		e := a.errorSummary(r)
		a.runtime = append(a.runtime, e)
		a.fails.events = append(a.fails.events, e)
		if ra != nil {
			ra.c.RuntimeErrors++
		}
	case logparse.KindCudagraphPartition:
		a.addPartitions(r, ra)
	case logparse.KindCudagraphRerecord:
		a.addRerecord(r, ra)
	case logparse.KindCudagraphRecording:
		a.addRecording(r)
	case logparse.KindWarning:
		a.addWarning(r)
	case logparse.KindCompile:
		a.AddCompile(r)
	}
}

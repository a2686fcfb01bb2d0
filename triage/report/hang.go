package report

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/triage/probe"
)

// Hang is whether the run hung, from evidence, and where each rank was: the stack dumps the tool took (each
// attributed to its rank by its prefix, torchrun's local rank, or the probe's start file naming its main thread),
// the tracebacks torch printed (gloo's timeout, monitored_barrier's, DETAIL's collective-mismatch check, a
// collective that lost its peer, the interrupts of the tool's stop), the probe's compile state and the tool's stall
// watchdog. testdata/dist-hangs holds the real recordings it is read from.
type Hang struct {
	State string `json:"state"` // HangHung, HangNotHung or HangUnknown
	// Cause names what the evidence shows, the hang finding's playbook: one of the Cause* constants, "" when none
	// of them fits
	Cause   string     `json:"cause,omitempty"`
	Summary string     `json:"summary"` // the one line: "rank 0 waits in all_reduce at train.py:11 · rank 1 in barrier at train.py:13 — ranks call different collectives"
	Basis   []string   `json:"basis"`   // what the state rests on, in words
	Ranks   []HangRank `json:"ranks"`
	// Mismatch is the collectives the ranks call where they differ: DETAIL's check names them (By "detail"), or the
	// ranks wait in different ones (By "waits"); nil otherwise
	Mismatch *Mismatch `json:"mismatch"`
}

// Hang states.
const (
	HangHung    = "hung"     // the run made no progress, and where each rank waits is known
	HangNotHung = "not_hung" // a rank was compiling, the run went on after its stall, or an error ended the wait at once
	HangUnknown = "unknown"  // evidence of a wait, but not enough to say (places not readable, no sign of how long)
)

// Hang causes (the hang finding's playbook).
const (
	CauseConditionalCollective = "conditional_collective"   // ranks wait in different collectives, or one in none
	CauseCollectiveMismatch    = "collective_mismatch"      // DETAIL's check names the collectives that differ
	CauseRankDead              = "rank_dead"                // a rank died first while the others wait
	CauseRankCompiling         = "rank_compiling"           // a rank compiles while the others wait: no hang
	CauseWaitOutside           = "wait_outside_collectives" // the data loader, a lock, a queue, I/O
)

// HangRank is where one rank was.
type HangRank struct {
	Rank int `json:"rank"` // -1: a process no rank is known of (a dump without rank prefix, no thread id in the probe's files)
	// WaitingIn is the collective or wait: a torch.distributed function ("all_reduce", "barrier", "recv",
	// "monitored_barrier"), "wait" (work.wait()), a functional collective of a compiled region ("wait_tensor"),
	// "compiled_region" (an op of a compiled region the dump does not name), "cuda_synchronize", "data_loader",
	// "lock", "queue", "io", "subprocess", "sleep", "compiling"; "" when the frames show none
	WaitingIn string `json:"waiting_in"`
	Site      string `json:"site"` // the innermost frame of the program, "train.py:11"; "" when not known
	File      string `json:"file,omitempty"`
	Line      int    `json:"line,omitempty"`
	Function  string `json:"function,omitempty"`
	// SinceS is how long it had been there: waiting without the run printing a line (the tool's stall), the
	// collective's own timeout, or compiling; null when nothing says
	SinceS *float64 `json:"since_s"`
	// AtMostS, where since_s is null for a run the tool stopped without a stall on record: the most it can have
	// waited there, from the end of its last compile (the probe's compile state) to the run's end; a bound, not
	// a measure
	AtMostS   *float64 `json:"at_most_s,omitempty"`
	Compiling bool     `json:"compiling"`
	// From is the evidence: "stack_dump", "traceback" (its error or interrupt), "stall" (the tool's watchdog
	// and the probe, no place)
	From string `json:"from"`
	// Ended is how its wait ended where an error ended it: "timed_out", "peer_gone", "mismatch_check"
	Ended string `json:"ended,omitempty"`
	kind  WaitKind
	// region: the compiled region's function
	region string
	thread string // a dump's thread id (0x…), "" for other evidence
}

// Mismatch is the collectives that differ between ranks.
type Mismatch struct {
	By     string   `json:"by"` // "detail": TORCH_DISTRIBUTED_DEBUG=DETAIL's check; "waits": the ranks' waits; "gloo_size": gloo's size check
	Ops    []RankOp `json:"ops"`
	Differ string   `json:"differ,omitempty"` // DETAIL's words ("Op type: ALLREDUCEvs BROADCAST"); gloo_size: the bytes in words
	// Received and Expected are gloo's size check's bytes (By "gloo_size": a rank aborted, receiving more bytes
	// than its collective expects: the ranks' tensors differ in shape or dtype, or their collectives differ)
	Received int `json:"received_bytes,omitempty"`
	Expected int `json:"expected_bytes,omitempty"`
}

// RankOp is one rank's collective.
type RankOp struct {
	Rank  int    `json:"rank"`
	Op    string `json:"op"`
	Shape string `json:"shape,omitempty"` // DETAIL's TensorShape ("[4, 8]")
}

// OpsText is "0 all_reduce, 1 broadcast" ("0 all_reduce [4, 8], …" with shapes).
func (m *Mismatch) OpsText() string {
	var parts []string
	for _, o := range m.Ops {
		p := Itoa(o.Rank) + " " + o.Op
		if o.Shape != "" {
			p += " " + o.Shape
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// HangOf reads the hang from a report and its run (nil for logs alone); ranks are the ranks every source knows of
// (evidence.ranks). nil when nothing shows a wait: no stack dump, no collective timeout or mismatch, no stall, no
// rank the tool's stop found in a collective.
func HangOf(rep *Report, run *RunFacts, ranks []int) *Hang {
	if rep == nil {
		return nil
	}
	b := hangBuilder{run: run, byRank: map[int]*HangRank{}}
	stopped := run != nil && run.Outcome == OutcomeStopped
	b.dumps(rep)
	detail, timedOut, stopInCollective := b.tracebacks(rep, stopped)
	var stall *StallFact
	if run != nil && len(run.Stalls) > 0 {
		stall = &run.Stalls[len(run.Stalls)-1]
	}
	interleaved := rep.Stacks.Interleaved
	if b.dumped == 0 && interleaved == 0 && !timedOut && detail == nil && !stopInCollective && stall == nil && len(rep.Hang.Gloo) == 0 {
		return nil
	}
	h := &Hang{Basis: []string{}, Ranks: []HangRank{}}
	if stall != nil && stall.Resumed && stall.Compiling != "" {
		// a compile the run went on after: the places its tracebacks and dumps show are of later, not of the stall
		b.byRank, b.unranked = map[int]*HangRank{}, nil
	}
	b.compiling(stall, ranks)
	b.since(stall)
	gloo := b.glooSize(rep)
	entries := b.entries()
	placed := 0
	var collective, outside, compiling []HangRank
	ops := map[string]bool{}
	for _, e := range entries {
		switch {
		case e.Compiling:
			compiling = append(compiling, e)
		case e.kind == WaitCollective || e.kind == WaitCompiled:
			collective = append(collective, e)
			ops[e.WaitingIn] = true
		case e.kind == WaitOther:
			outside = append(outside, e)
		}
		if e.Site != "" || e.Compiling {
			placed++
		}
	}
	world := len(ranks)
	allPlaced := placed > 0 && (world == 0 || placed >= world)
	ongoing := stall != nil && !stall.Resumed // no output from the stall to the run's end (or now)
	if stall != nil {
		h.Basis = append(h.Basis, stallWords(*stall))
	}
	if b.dumped > 0 {
		h.Basis = append(h.Basis, Plural(b.dumped, "stack dump")+" the tool took"+b.attributed())
	}
	if interleaved > 0 {
		h.Basis = append(h.Basis, Plural(interleaved, "stack dump record")+" whose processes wrote at the same moment: their lines interleave, no place is read from them")
	}
	if timedOut {
		words := "torch's collective timeout: a rank waited until its process group gave up"
		if v := run.ToolEnvironment()[probe.CollectiveTimeoutEnv]; v != "" {
			words += " (after " + v + "s: the timeout torchtriage set, --collective-timeout, not the program's)"
		}
		h.Basis = append(h.Basis, words)
	}
	dead := b.deadRank(rep)
	switch {
	case detail != nil:
		h.Cause, h.Mismatch = CauseCollectiveMismatch, detail
		h.State = HangNotHung
		if timedOut {
			h.State = HangHung
		}
		h.Basis = append(h.Basis, "TORCH_DISTRIBUTED_DEBUG=DETAIL's check raised: the ranks' collectives differ")
	case gloo != nil:
		h.Cause, h.Mismatch, h.State = CauseCollectiveMismatch, gloo, HangNotHung // the abort ended the wait
		h.Basis = append(h.Basis, "gloo's size check aborted a rank (std::terminate, gloo::EnforceNotMet): "+gloo.Differ)
	case len(compiling) > 0:
		h.Cause, h.State = CauseRankCompiling, HangNotHung
		h.Basis = append(h.Basis, "a compiling rank is busy, not hung: the others wait for it")
	case run != nil && run.Outcome == OutcomeCompleted:
		h.State = HangNotHung
		h.Basis = append(h.Basis, "the run went on and completed")
	case interleaved > 0 && !allPlaced:
		h.State = HangUnknown
	case dead != nil && len(collective) > 0 && (timedOut || ongoing || stopped):
		h.Cause, h.State = CauseRankDead, HangHung
		h.Basis = append(h.Basis, dead.Text()+", while the others wait")
	case len(ops) >= 2 && allPlaced:
		h.Cause, h.State = CauseConditionalCollective, HangHung // collectives that cannot match: no rank goes on
		h.Mismatch = &Mismatch{By: "waits"}
		for _, e := range collective {
			h.Mismatch.Ops = append(h.Mismatch.Ops, RankOp{Rank: e.Rank, Op: e.WaitingIn})
		}
		h.Basis = append(h.Basis, "the ranks wait in different collectives, which cannot match")
	case len(collective) > 0 && len(outside) > 0 && allPlaced:
		h.Cause, h.State = CauseConditionalCollective, b.hungIf(timedOut || ongoing)
	case len(collective) > 0:
		h.State = b.hungIf(timedOut || ongoing)
	case len(outside) > 0:
		h.Cause, h.State = CauseWaitOutside, b.hungIf(ongoing)
	default:
		h.State = HangUnknown
	}
	if stopped && !ongoing && (b.dumped > 0 || stopInCollective) && h.Cause != CauseRankCompiling {
		words := "how long the ranks had waited is not known: the tool recorded no stall before its stop"
		set, unknown := b.atMost(entries)
		if set {
			words += "; at most since each rank's last compile ended (the probe's compile state)"
		}
		if unknown {
			words += "; for a place of no known rank not even that bound: the probe's files do not say which process it is"
		}
		h.Basis = append(h.Basis, words)
	}
	h.Ranks = entries
	h.Summary = hangSummary(h, dead, b.missing)
	if h.Summary == "the run went on" && stall != nil && stall.Resumed {
		h.Summary = "no output for " + stall.Until.Sub(stall.Since).Round(time.Second).String() + " with nothing compiling, then the run went on"
		if run.Outcome == OutcomeCompleted {
			h.Summary += " and completed"
		}
	}
	return h
}

func (b *hangBuilder) hungIf(noProgress bool) string {
	if noProgress {
		return HangHung
	}
	return HangUnknown
}

// hangBuilder gathers each rank's place.
type hangBuilder struct {
	run      *RunFacts
	byRank   map[int]*HangRank
	unranked []*HangRank
	dumped   int   // program processes the stack dumps show
	byThread int   // of them, attributed through the probe's thread id
	noRank   int   // of them, of no known rank
	missing  []int // the ranks monitored_barrier says did not pass it
}

// dumps places the processes the stack dumps show; a rank's last dump counts.
func (b *hangBuilder) dumps(rep *Report) {
	threads := threadRanks(b.run)
	for _, p := range rep.Stacks.Places {
		if p.wait.User.File == "" {
			continue // a dump of no main thread (StackAt's fallback): no wait to read
		}
		b.dumped++
		r, byThread := rep.Stacks.dumpRank(p, b.run, threads)
		if byThread {
			b.byThread++
		}
		e := placeOf(r, p.wait, "stack_dump")
		e.thread = p.thread
		if r < 0 {
			b.noRank++
			b.unranked = append(b.unranked, &e)
			continue
		}
		b.byRank[r] = &e
	}
}

// attributed words how the dumps got their ranks.
func (b *hangBuilder) attributed() string {
	switch {
	case b.noRank == b.dumped && b.dumped > 1:
		return " (they name no rank: no rank prefix, and the probe recorded no thread id; which rank is which is not known)"
	case b.noRank > 0:
		return " (" + Plural(b.noRank, "dump") + " of no known rank)"
	case b.byThread > 0:
		return " (ranks from the probe's start files, by thread id)"
	}
	return ""
}

// DumpRank is the rank of a stack dump as the hang analysis attributes it: its prefix or local rank (RankOf),
// else the rank whose main-thread id the probe recorded; -1 when not known. Where each rank was when the tool
// stopped the run (triage's StoppedAt) asks this too, so both name the same ranks.
func (s stackLog) DumpRank(p stackPlace, run *RunFacts) int {
	r, _ := s.dumpRank(p, run, threadRanks(run))
	return r
}

// dumpRank is DumpRank with the thread map made once; byThread says the rank came from the thread id.
func (s stackLog) dumpRank(p stackPlace, run *RunFacts, threads map[string]int) (int, bool) {
	world := 0
	if run != nil && run.Direct {
		world = run.WorldSize
	}
	if r := s.RankOf(p, world); r >= 0 || p.thread == "" {
		return r, false
	}
	if tr, ok := threads[p.thread]; ok {
		return tr, true
	}
	return -1, false
}

// threadRanks maps the main-thread id the probe recorded (as a dump prints it) to its rank; an id two processes
// share names neither.
func threadRanks(run *RunFacts) map[string]int {
	out := map[string]int{}
	if run == nil {
		return out
	}
	for _, s := range run.Started {
		id := s.ThreadID()
		if id == "" || s.NoRank() {
			continue
		}
		if _, dup := out[id]; dup {
			out[id] = -1
			continue
		}
		out[id] = s.Rank
	}
	for id, r := range out {
		if r < 0 {
			delete(out, id)
		}
	}
	return out
}

func placeOf(rank int, w procWait, from string) HangRank {
	e := HangRank{Rank: rank, WaitingIn: w.Op, File: w.User.File, Line: w.User.Line, Function: w.User.Func, From: from,
		kind: w.Kind, region: w.Region, Compiling: w.Kind == WaitCompiling}
	if e.File != "" {
		e.Site = filepath.Base(e.File) + ":" + Itoa(e.Line)
	}
	return e
}

// tracebacks places the ranks no dump placed from their errors (and, in a run the tool stopped, their interrupts),
// and reads torch's collective timeouts and DETAIL's mismatch.
func (b *hangBuilder) tracebacks(rep *Report, stopped bool) (detail *Mismatch, timedOut, stopInCollective bool) {
	own := map[int]RankOp{}
	var others []RankOp
	var said []errWait // the DETAIL errors
	for _, e := range rep.Hang.Errors {
		if e.Interrupt && !stopped {
			continue
		}
		if e.TimeoutMs > 0 {
			timedOut = true
		}
		for _, m := range e.Missing {
			if !slices.Contains(b.missing, m) {
				b.missing = append(b.missing, m)
			}
		}
		if e.Interrupt && (e.Wait.Kind == WaitCollective || e.Wait.Kind == WaitCompiled) {
			stopInCollective = true
		}
		if len(e.Detail) > 0 {
			// the first rank named is the raising rank's own op; what it says of the others is the wrapper's fingerprint
			// exchange, itself mismatched (rank 1 in barrier sees rank 0's all_reduce as ALLGATHER_COALESCED): taken only
			// for a rank that said nothing of itself
			if _, ok := own[e.Detail[0].Rank]; !ok {
				own[e.Detail[0].Rank] = e.Detail[0]
			}
			others = append(others, e.Detail[1:]...)
			said = append(said, e)
		}
		p := placeOf(e.Rank, e.Wait, "traceback")
		switch {
		case e.TimeoutMs > 0:
			p.Ended = "timed_out"
			s := float64(e.TimeoutMs) / 1000
			p.SinceS = &s
		case len(e.Detail) > 0:
			p.Ended = "mismatch_check"
		case e.PeerGone:
			p.Ended = "peer_gone"
		}
		if e.Rank < 0 {
			if len(b.byRank) == 0 && len(b.unranked) == 0 { // one process's log
				b.unranked = append(b.unranked, &p)
			}
			continue
		}
		if cur, ok := b.byRank[e.Rank]; ok {
			if cur.From == "traceback" && cur.Ended == "" && p.Ended != "" { // a chain's error after its interrupt
				b.byRank[e.Rank] = &p
			} else if cur.From == "stack_dump" && p.SinceS != nil && cur.SinceS == nil {
				cur.SinceS, cur.Ended = p.SinceS, p.Ended
			}
			continue
		}
		b.byRank[e.Rank] = &p
	}
	for _, o := range others {
		if _, ok := own[o.Rank]; !ok {
			own[o.Rank] = o
		}
	}
	// DETAIL's words on how they differ, from an error whose view of the other ranks is their own (against a
	// barrier, each side sees the other's check exchange instead: ALLGATHER_COALESCED, REDUCE)
	differ := ""
	for _, e := range said {
		if !slices.ContainsFunc(e.Detail[1:], func(o RankOp) bool { return own[o.Rank].Op != o.Op }) {
			differ = e.Differ
			break
		}
	}
	if len(own) > 0 {
		detail = &Mismatch{By: "detail", Differ: differ}
		for _, o := range own {
			detail.Ops = append(detail.Ops, o)
		}
		slices.SortFunc(detail.Ops, func(x, y RankOp) int { return cmp.Compare(x.Rank, y.Rank) })
		sameOp, sameShape := true, true
		for _, o := range detail.Ops[1:] {
			sameOp = sameOp && o.Op == detail.Ops[0].Op
			sameShape = sameShape && o.Shape == detail.Ops[0].Shape
		}
		if !sameOp || sameShape { // shapes say something only of the same op
			for i := range detail.Ops {
				detail.Ops[i].Shape = ""
			}
		}
	}
	return detail, timedOut, stopInCollective
}

// compiling marks the ranks that were compiling: the stall's note (the probe's compile state when the watchdog
// noticed it), or, for a run that ended stopped, the probe's last compile state.
func (b *hangBuilder) compiling(stall *StallFact, ranks []int) {
	if stall != nil && stall.Compiling != "" {
		parts := probe.ParseCompiling(stall.Compiling)
		for _, p := range parts {
			if p.Rank < 0 {
				continue
			}
			e := b.rank(p.Rank, "stall")
			e.Compiling, e.WaitingIn, e.kind = true, "compiling", WaitCompiling
			if e.Function == "" {
				e.Function = p.Function
			}
			s := p.For.Seconds()
			e.SinceS = &s
		}
		if len(parts) > 0 { // the others waited: no place known but the one a dump or error gave
			for _, r := range ranks {
				b.rank(r, "stall")
			}
		}
	}
	if b.run != nil && b.run.Outcome == OutcomeStopped {
		for _, c := range b.run.CompileStates {
			if c.Phase == "compiling" && c.RankSource != "default" {
				e := b.rank(c.Rank, "probe")
				e.Compiling, e.WaitingIn, e.kind = true, "compiling", WaitCompiling
				if e.Function == "" {
					e.Function = c.Function
				}
			}
		}
	}
}

// rank is a rank's entry, made (from) when there is none.
func (b *hangBuilder) rank(r int, from string) *HangRank {
	if e, ok := b.byRank[r]; ok {
		return e
	}
	e := &HangRank{Rank: r, From: from}
	b.byRank[r] = e
	return e
}

// since says how long the waiting ranks had waited where the tool's watchdog knows: the run printed nothing from
// its stall's start to its end (or the output again).
func (b *hangBuilder) since(stall *StallFact) {
	if stall == nil || stall.Until.IsZero() {
		return
	}
	s := stall.Until.Sub(stall.Since).Round(100 * time.Millisecond).Seconds()
	for _, e := range b.entries() {
		if !e.Compiling && e.SinceS == nil {
			b.setSince(e, s)
		}
	}
}

func (b *hangBuilder) setSince(e HangRank, s float64) {
	for _, p := range append(b.unrankedList(), b.rankedList()...) {
		if p.Rank == e.Rank && p.File == e.File && p.Line == e.Line && p.From == e.From {
			v := s
			p.SinceS = &v
			return
		}
	}
}

func (b *hangBuilder) rankedList() []*HangRank {
	var out []*HangRank
	for _, e := range b.byRank {
		out = append(out, e)
	}
	slices.SortFunc(out, func(x, y *HangRank) int { return cmp.Compare(x.Rank, y.Rank) })
	return out
}

func (b *hangBuilder) unrankedList() []*HangRank { return b.unranked }

// entries are the ranks by rank, then the processes of no known rank.
func (b *hangBuilder) entries() []HangRank {
	out := []HangRank{}
	for _, e := range b.rankedList() {
		out = append(out, *e)
	}
	for _, e := range b.unranked {
		out = append(out, *e)
	}
	return out
}

// glooSize reads gloo's abort on its size check (hang_log.go) as the collective mismatch it is: the aborting rank
// (its prefix, else the rank torchrun's table lists as killed by SIGABRT) is added to the ranks, ended by the
// check; the ops are the ranks' collectives the other evidence shows (no Python traceback names the aborting
// rank's). nil when no process aborted so.
func (b *hangBuilder) glooSize(rep *Report) *Mismatch {
	if len(rep.Hang.Gloo) == 0 {
		return nil
	}
	g := rep.Hang.Gloo[0]
	r := g.Rank
	if r < 0 {
		aborted := -1
		for _, c := range rep.Hang.Children {
			if c.Signal == "SIGABRT" || c.ExitCode == -6 {
				if aborted >= 0 {
					aborted = -1 // two aborts: which printed this is not known
					break
				}
				aborted = c.Rank
			}
		}
		r = aborted
	}
	who := "a rank"
	if r >= 0 {
		who = "rank " + Itoa(r)
		e := b.rank(r, "gloo_abort")
		if e.Ended == "" {
			e.Ended = "size_check"
		}
	} else {
		b.unranked = append(b.unranked, &HangRank{Rank: -1, From: "gloo_abort", Ended: "size_check"})
	}
	m := &Mismatch{By: "gloo_size", Received: g.Received, Expected: g.Expected,
		Differ: who + " received " + Itoa(g.Received) + " bytes where its collective expected " + Itoa(g.Expected)}
	for _, e := range b.entries() {
		if e.WaitingIn != "" && e.Rank >= 0 && (e.kind == WaitCollective || e.kind == WaitCompiled) {
			m.Ops = append(m.Ops, RankOp{Rank: e.Rank, Op: e.WaitingIn})
		}
	}
	if m.Ops == nil {
		m.Ops = []RankOp{}
	}
	return m
}

// deadRank is the first failure when it is a rank's own (not a collective that lost its peer, nor a timeout: a
// crash, a kill, an abort), nil otherwise.
func (b *hangBuilder) deadRank(rep *Report) *FirstFailure {
	f := rep.FirstFailure
	if f == nil || f.Rank < 0 || peerGone(f.ErrorSummary) || timeoutMs(f.Message) > 0 || strings.Contains(f.Message, DetailMismatchText) {
		return nil
	}
	return f
}

// stallWords words a stall: "no output for 19s (from 17:37:36), then the run went on".
func stallWords(s StallFact) string {
	w := "the tool's watchdog saw no output from " + s.Since.Format(time.TimeOnly)
	switch {
	case s.Resumed:
		w += " for " + s.Until.Sub(s.Since).Round(time.Second).String() + ", then output again"
	case !s.Until.IsZero():
		w += " to the run's end (" + s.Until.Sub(s.Since).Round(time.Second).String() + ")"
	default:
		w += " on"
	}
	if s.Compiling != "" {
		w += "; compiling then: " + s.Compiling
	} else {
		w += "; nothing compiling then"
	}
	return w
}

// hangSummary is the hang's one line.
func hangSummary(h *Hang, dead *FirstFailure, missing []int) string {
	switch {
	case h.Cause == CauseRankCompiling:
		return compilingSummary(h)
	case h.Cause == CauseCollectiveMismatch:
		return mismatchSummary(h)
	}
	var parts []string
	first := true
	unranked := 0
	for _, e := range h.Ranks {
		if e.Rank < 0 {
			unranked++
		}
	}
	for _, e := range h.Ranks {
		if e.Site == "" && !e.Compiling && e.WaitingIn == "" {
			continue
		}
		who := "rank " + Itoa(e.Rank)
		if e.Rank < 0 {
			who = "a rank"
			if !first {
				who = "another"
			}
		}
		verb := ""
		if first {
			verb = "waits "
		}
		var s string
		switch {
		case e.Compiling:
			s = who + " compiling"
			if e.Function != "" {
				s += " `" + e.Function + "`"
			}
			if e.SinceS != nil {
				s += " for " + secondsText(*e.SinceS)
			}
		default:
			s = who + " " + verb + placeWords(e)
		}
		parts = append(parts, s)
		first = false
	}
	line := strings.Join(parts, " · ")
	var why string
	switch h.Cause {
	case CauseConditionalCollective:
		switch {
		case h.Mismatch != nil && slices.ContainsFunc(h.Mismatch.Ops, func(o RankOp) bool { return o.Op == "compiled_region" }):
			why = "ranks wait in different places, a collective and an op of a compiled region"
		case h.Mismatch != nil:
			why = "ranks call different collectives"
		default:
			var none []int
			for _, e := range h.Ranks {
				if e.kind != WaitCollective && e.kind != WaitCompiled && e.Rank >= 0 {
					none = append(none, e.Rank)
				}
			}
			it := "it is"
			if len(none) > 1 {
				it = "they are"
			}
			why = "a rank is in no collective: it never calls this one, or is stuck where it is"
			if len(none) > 0 {
				why = RankWord(none) + " in no collective: never calling this one, or stuck where " + it
			}
		}
	case CauseCollectiveMismatch:
		why = "DETAIL's check: the collectives differ"
		if h.Mismatch != nil && h.Mismatch.Differ != "" {
			why += " (" + h.Mismatch.Differ + ")"
		}
	case CauseRankDead:
		why = dead.Text() + " first"
	case CauseWaitOutside:
		why = "a wait outside collectives"
	}
	if h.Cause == "" && h.State == HangNotHung {
		why = "the run went on"
	}
	if len(missing) > 0 && h.Cause == "" {
		why = RankWord(missing) + " never reached it (monitored_barrier names " + map[bool]string{true: "it", false: "them"}[len(missing) == 1] + ")"
	}
	if h.State == HangUnknown && h.Cause == "" {
		why = "not enough to say whether it hung"
		if line == "" && slices.ContainsFunc(h.Basis, func(b string) bool { return strings.Contains(b, "interleave") }) {
			why = "the ranks' stack dumps interleave: where each waits is not readable"
		}
	}
	if unranked > 1 {
		why = strings.TrimSpace(why + " (the dumps name no rank)")
	}
	switch {
	case line == "":
		return why
	case why == "":
		return line
	}
	return line + " — " + why
}

// placeWords is "in all_reduce at train.py:11", "in compiled code of step at train.py:18", "at train.py:30 (in no
// collective its frames show)".
func placeWords(e HangRank) string {
	at := ""
	if e.Site != "" {
		at = " at " + e.Site
	}
	switch {
	case e.WaitingIn == "compiled_region":
		return "in an op of " + cmp.Or(e.region, "a") + "'s compiled code" + at
	case e.kind == WaitCollective && e.region != "":
		return "in " + e.WaitingIn + " (a functional collective of " + e.region + "'s compiled code)" + at
	case e.WaitingIn != "":
		return "in " + e.WaitingIn + at
	case e.Site != "":
		return "at " + e.Site + " (in no collective its frames show)"
	}
	return "where, not known"
}

// secondsText is "20s", "2.5s", "1m10s".
func secondsText(s float64) string {
	d := time.Duration(s * float64(time.Second)).Round(100 * time.Millisecond)
	if d >= 10*time.Second {
		d = d.Round(time.Second)
	}
	return d.String()
}

// SinceText is a rank's since_s in words, else its at_most_s, labelled as the bound it is: "at most 1m44s (since
// its last compile)"; "" when neither is known.
func (e HangRank) SinceText() string {
	switch {
	case e.SinceS != nil:
		return secondsText(*e.SinceS)
	case e.AtMostS != nil:
		return "at most " + secondsText(*e.AtMostS) + " (since its last compile)"
	}
	return ""
}

// atMost sets, for each waiting rank of a stopped run whose wait has no measure, the bound its probe's compile
// state gives: its last compile ended at since, the run ended at End, it cannot have waited there longer (its main
// thread compiles before it calls in). A place of no rank (a dump or traceback without prefix) is the process the
// probe's files name: the one whose main thread the dump shows, or the run's only process; unknown says one was
// none of those. It reports whether it set any.
func (b *hangBuilder) atMost(entries []HangRank) (set, unknown bool) {
	if b.run == nil || b.run.End.IsZero() {
		return false, false
	}
	for i := range entries {
		e := &entries[i]
		if e.Compiling || e.SinceS != nil || e.Site == "" {
			continue
		}
		pid := -1 // a place of no rank: its process
		if e.Rank < 0 {
			for _, s := range b.run.Started {
				if e.thread != "" && s.ThreadID() == e.thread {
					pid = s.PID
				}
			}
			if pid < 0 && len(b.run.CompileStates) == 1 && len(b.run.Started) <= 1 {
				pid = b.run.CompileStates[0].PID
			}
			unknown = unknown || pid < 0
		}
		for _, c := range b.run.CompileStates {
			if (c.Rank != e.Rank || c.RankSource == "default") && c.PID != pid || c.Phase != "idle" || c.Compiles == 0 || c.SinceUnix <= 0 {
				continue
			}
			ended := time.Unix(0, int64(c.SinceUnix*1e9))
			if d := b.run.End.Sub(ended).Round(100 * time.Millisecond).Seconds(); d > 0 {
				e.AtMostS, set = &d, true
			}
			break
		}
	}
	return set, unknown
}

// compilingSummary is "rank 1 compiling `step` (20s) while rank 0 waits (19s without output) — a slow rank, not a
// hang".
func compilingSummary(h *Hang) string {
	var comp, wait []string
	quiet := ""
	for _, e := range h.Ranks {
		who := "rank " + Itoa(e.Rank)
		if e.Rank < 0 {
			who = "a process"
		}
		if e.Compiling {
			s := who + " compiling"
			if e.Function != "" {
				s += " `" + e.Function + "`"
			}
			if e.SinceS != nil {
				s += " (" + secondsText(*e.SinceS) + ")"
			}
			comp = append(comp, s)
			continue
		}
		if e.SinceS != nil && quiet == "" {
			quiet = " (" + secondsText(*e.SinceS) + " without output)"
		}
		who += " waits"
		if e.Site != "" {
			who += " " + placeWords(e)
		}
		wait = append(wait, who)
	}
	line := strings.Join(comp, " · ")
	if len(wait) > 0 {
		line += " while " + strings.Join(wait, ", ") + quiet
	}
	return line + " — a slow rank, not a hang"
}

// mismatchSummary is "rank 0 calls all_reduce at h.py:26 · rank 1 broadcast at h.py:29 — DETAIL's check: Op type:
// ALLREDUCEvs BROADCAST": each rank's own op as DETAIL's check names it, where the rank's traceback shows it.
func mismatchSummary(h *Hang) string {
	if h.Mismatch.By == "gloo_size" {
		return glooSummary(h)
	}
	var parts []string
	for i, o := range h.Mismatch.Ops {
		s := "rank " + Itoa(o.Rank) + " "
		if i == 0 {
			s += "calls "
		}
		s += o.Op
		if o.Shape != "" {
			s += " of " + o.Shape
		}
		for _, e := range h.Ranks {
			if e.Rank == o.Rank && e.Site != "" {
				s += " at " + e.Site
				break
			}
		}
		parts = append(parts, s)
	}
	why := "TORCH_DISTRIBUTED_DEBUG=DETAIL's check: the collectives differ"
	if d := h.Mismatch.Differ; d != "" {
		why += " (" + d + ")"
	}
	return strings.Join(parts, " · ") + " — " + why
}

// glooSummary is "rank 0 aborted on gloo's size check (received 48 bytes, its collective expected 32) · rank 1 in
// all_reduce at train.py:26 — the ranks' collectives differ in size (tensor shape or dtype) or in kind".
func glooSummary(h *Hang) string {
	var parts []string
	for _, e := range h.Ranks {
		who := "rank " + Itoa(e.Rank)
		if e.Rank < 0 {
			who = "a rank"
		}
		switch {
		case e.From == "gloo_abort":
			parts = append(parts, who+" aborted on gloo's size check (received "+Itoa(h.Mismatch.Received)+
				" bytes, its collective expected "+Itoa(h.Mismatch.Expected)+")")
		case e.WaitingIn != "":
			s := who + " in " + e.WaitingIn
			if e.Site != "" {
				s += " at " + e.Site
			}
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " · ") + " — the ranks' collectives differ in size (tensor shape or dtype) or in kind"
}

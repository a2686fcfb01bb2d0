package logparse

import (
	"slices"
	"sync"
	"sync/atomic"
)

// breakMemo remembers the payload of graph-break records by their text, for counting (Options.SkipOther without
// KeepText): under torchrun every rank prints the same break, and a recompiled frame prints its break again, so
// most break records repeat one seen before, rank prefix and compile id aside (those are not in the text). A
// repeat is not split into strings nor parsed again: it gets the payload the memo made of the first one, shared
// by every repeat as its lines are (counting's payloads are read, never written, after parsing: triage's
// TestCountedPayloadsAreReadOnly). It is shared by the parsers of one load (every input, every
// part), so it is safe for concurrent use; it stops taking new texts at maxMemoBytes.
type breakMemo struct {
	mu       sync.RWMutex
	m        map[string]*memoBreak
	bytes    int
	recs     map[string]*memoRecord // records of other kinds (below)
	recBytes int
}

// memoBreak is what classify made of one break text.
type memoBreak struct {
	ends  []int    // where each line ends in the text: the same bytes cut into other lines are other lines
	lines []string // the record's lines (eraEvidence reads the first)
	brk   *GraphBreak
	cut   string
	id    int32 // the records' SameBreak
}

// memoIDs numbers the texts of every memo in the process (a consumer fed by two loads never sees one id twice).
var memoIDs atomic.Int32

// maxMemoBytes bounds the texts a memo holds (a log of only distinct breaks gains nothing from it).
const maxMemoBytes = 16 << 20

// maxMemoText is the longest record text remembered.
const maxMemoText = 64 << 10

func newBreakMemo() *breakMemo { return &breakMemo{m: map[string]*memoBreak{}} }

// get returns the payload of a break record of this text cut at these line ends, nil when none is remembered.
func (m *breakMemo) get(text []byte, ends []int) *memoBreak {
	if m == nil {
		return nil
	}
	m.mu.RLock()
	e := m.m[string(text)] // no copy: a lookup by a converted []byte does not allocate
	m.mu.RUnlock()
	if e == nil || !slices.Equal(e.ends, ends) {
		return nil
	}
	return e
}

// put remembers what classify made of a graph-break record; text is the record's text as one string (its lines
// are slices of it, so keeping it costs nothing more than the lines do).
func (m *breakMemo) put(text string, ends []int, r *Record) {
	if m == nil || text == "" || r.Kind != KindGraphBreak || r.Truncated || len(text) > maxMemoText {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.bytes+len(text) > maxMemoBytes || m.m[text] != nil {
		return
	}
	m.bytes += len(text)
	g := *r.Break // the memo's own, which the repeats share: the first record keeps its own
	e := &memoBreak{ends: slices.Clone(ends), lines: slices.Clone(r.Lines), brk: &g, cut: r.Cut, id: max(memoIDs.Add(1), 0)}
	m.m[text] = e
	r.sameBreak = e.id
}

// apply gives r the remembered payload: the shared break, lines and cut (a copy of the break each was 9 MB of
// bench/many.sh's run, enough to make its JSON report collect once more).
func (e *memoBreak) apply(r *Record) {
	r.Kind, r.Break, r.Lines, r.Cut, r.sameBreak = KindGraphBreak, e.brk, e.lines, e.cut, e.id
}

// The same holds beyond graph breaks: under torchrun every rank prints the same traceback, limit hit and partition
// record, and a steady run prints them again and again. A counted record of a kind whose payload classify makes
// from its lines alone (recordMemoed) is classified once per text: a repeat gets what classify made of the first,
// payloads shared as the breaks' are (read-only), an exception's own copy (a traceback a later line shows caught is
// marked so on its record: settleCaught). The memo takes texts up to maxMemoBytes of its own.

// memoRecord is what classify made of one text of a kind recordMemoed, before settleCaught.
type memoRecord struct {
	ends  []int    // where each line ends in the text
	lines []string // the record's lines (eraEvidence reads them)
	kind  Kind
	cut   string
	err   *CompileError // copied into each record
	brk   *GraphBreak   // a warning about an unsupported builtin is a break (classify)
	limit *LimitHit
	skip  *CudagraphSkip
	parts *Partitions
	warn  *Warning
	at    *Frame
	dump  *StackDump
	ddp   *DDPGraph
	cache *CacheEvent
}

// recordMemoed reports a head whose record classify makes from the record's lines and the traceback's flavor alone
// (not from its prefix: a shape line reads its emitter, a CUDA-graph re-record its compile id; breaks and
// recompiles have memos of their own).
func recordMemoed(h headKind) bool {
	switch h {
	case headTraceback, headLimit, headSkip, headStack, headPartition, headWarning, headWontConv, headGuards, headDDP, headCache:
		return true
	}
	return false
}

// recordKey is the memo's key of b: its head, its flavor and its text, in buf (no allocation for a lookup).
func recordKey(buf []byte, b *builder) []byte {
	return append(append(buf[:0], byte(b.head), b.flavor), b.text...)
}

// getRecord returns what classify made of a record of this key and line ends, nil when none is remembered.
func (m *breakMemo) getRecord(key []byte, ends []int) *memoRecord {
	m.mu.RLock()
	e := m.recs[string(key)]
	m.mu.RUnlock()
	if e == nil || !slices.Equal(e.ends, ends) {
		return nil
	}
	return e
}

// putRecord remembers what classify made of r (its lines owned, settleCaught not applied).
func (m *breakMemo) putRecord(key []byte, ends []int, r *Record) {
	if len(key) > maxMemoText {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.recBytes+len(key) > maxMemoBytes || m.recs[string(key)] != nil {
		return
	}
	m.recBytes += len(key)
	e := &memoRecord{ends: slices.Clone(ends), lines: r.Lines, kind: r.Kind, cut: r.Cut, brk: r.Break, limit: r.Limit,
		skip: r.Skip, parts: r.Parts, warn: r.Warning, at: r.StackAt, dump: r.Dump, ddp: r.DDP, cache: r.Cache}
	if r.Error != nil {
		c := *r.Error
		e.err = &c
	}
	if m.recs == nil {
		m.recs = map[string]*memoRecord{}
	}
	m.recs[string(key)] = e
}

// apply gives r the remembered payload: the shared ones, and its own copy of an exception.
func (e *memoRecord) apply(r *Record) {
	r.Lines, r.Kind, r.Cut, r.Break, r.Limit, r.Skip, r.Parts, r.Warning = e.lines, e.kind, e.cut, e.brk, e.limit, e.skip, e.parts, e.warn
	r.StackAt, r.Dump, r.DDP, r.Cache = e.at, e.dump, e.ddp, e.cache
	if e.err != nil {
		c := *e.err
		r.Error = &c
	}
}

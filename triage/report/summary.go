package report

import (
	"hash/maphash"
	"slices"
	"sort"

	"github.com/torchtriage/torchtriage/logparse"
)

// Evidence points at one record in one input.
type Evidence struct {
	Rank      int    `json:"rank"`
	CompileID string `json:"compile_id,omitempty"`
	File      string `json:"file,omitempty"`
	Line      int    `json:"line,omitempty"`
	Input     string `json:"input"`
	InputLine int    `json:"input_line"`
}

func evidenceOf(r *logparse.Record, file string, line int) Evidence {
	return Evidence{Rank: r.Rank, CompileID: r.CompileID.String(), File: file, Line: line, Input: r.Input, InputLine: r.FirstLine}
}

// BreakSummary is one distinct graph break.
type BreakSummary struct {
	File       string   `json:"file"`
	Line       int      `json:"line"`
	Function   string   `json:"function"`
	Reason     string   `json:"reason"`
	GBType     string   `json:"gb_type"`
	GBID       string   `json:"gb_id"`
	Records    int      `json:"records"`
	Ranks      []int    `json:"ranks"`
	CompileIDs []string `json:"compile_ids"`
	UserFile   string   `json:"user_file,omitempty"`
	UserLine   int      `json:"user_line,omitempty"`
	UserFunc   string   `json:"user_function,omitempty"`

	Key      BreakKey         `json:"-"`
	Evidence []Evidence       `json:"-"`
	Sample   *logparse.Record `json:"-"` // the most detailed record seen (full beats duplicate)
	// fullSample: Sample is a full record (read on every record: not through the sample's pointers)
	fullSample bool
	ItemOnly   bool `json:"-"` // known only from a warning (Tensor.item(), Dynamo's about a builtin)
	Fragment   bool `json:"-"` // known only from pasted fragments without a user frame: its site is not in the input
	cids       cidSet
	ranks      perRank // per rank: records and earliest compile id (findings_collect.go)
}

const MaxEvidence = 32

func (a *Aggregator) addBreak(r *logparse.Record, ra *rankAgg) {
	g := r.Break
	same := r.SameBreak()
	if !SameBreakCache {
		same = 0
	}
	s := a.sameBreak[same]
	if s == nil {
		s = a.breakOf(r, ra)
		// a text that is found by its key alone (not a warning, whose ranks are noted above; not a cut record,
		// found by its site among the breaks met so far) finds the same summary each time
		if same != 0 && r.Cut == "" && g.Variant != logparse.BreakItemWarning && g.Variant != logparse.BreakBuiltinWarning {
			a.sameBreak[same] = s
		}
	}
	s.Records++
	s.ranks.note(r) // records per rank too
	if r.CompileID.Valid() {
		s.cids.Add(r.CompileID)
	}
	if len(s.Evidence) < MaxEvidence {
		s.Evidence = append(growTo(s.Evidence, MaxEvidence), a.evidenceOwned(r, s.Key.File, g.Line))
	}
	if g.Variant == logparse.BreakFull && !s.fullSample {
		s.Sample, s.fullSample = a.breakSample(r), true
		s.fill(s.Sample.Break)
	}
	if s.GBID == "" {
		s.GBID = a.names.of(g.GBID)
	}
}

// sameBreakCache: addBreak finds a remembered text's summary by its id (tests compare with it off).
var SameBreakCache = true

// breakOf is the distinct break r counts for (made when new): warnings by their site, the rest by KeyOf.
func (a *Aggregator) breakOf(r *logparse.Record, ra *rankAgg) *BreakSummary {
	g := r.Break
	key := KeyOf(g)
	var s *BreakSummary
	if frag := Fragment(r); frag || g.Variant == logparse.BreakItemWarning || g.Variant == logparse.BreakBuiltinWarning {
		site := warnedSite(key, g)
		s = a.items[site]
		if s == nil {
			s = a.newBreak(key, r)
			s.ItemOnly, s.Fragment = !frag, frag
			a.items[site] = s
		}
		if ra != nil {
			ra.items[site] = true
		}
	} else {
		s = a.breaks[key]
		if s == nil && r.Cut != "" && (g.GBType == "" || g.GBType == g.Reason) { // cut before its gb_type: the break already seen at its site
			s = a.breakAt(key.File, key.Line)
		}
		if s == nil {
			s = a.newBreak(key, r)
			a.breaks[s.Key] = s
		}
	}
	return s
}

// breakAt is a distinct break already seen at file:line, nil when none (the first one met, for a cut record).
func (a *Aggregator) breakAt(file string, line int) *BreakSummary {
	var best *BreakSummary
	for k, s := range a.breaks {
		if k.File == file && k.Line == line && (best == nil || k.What < best.Key.What) {
			best = s
		}
	}
	return best
}

// newBreak starts the summary of a distinct break; its strings are the aggregator's own (retain.go).
func (a *Aggregator) newBreak(key BreakKey, r *logparse.Record) *BreakSummary {
	key = BreakKey{File: a.names.of(key.File), Line: key.Line, What: a.names.of(key.What)}
	s := &BreakSummary{Key: key, File: key.File, Line: key.Line, Sample: a.breakSample(r),
		fullSample: r.Break.Variant == logparse.BreakFull}
	s.fill(s.Sample.Break)
	return s
}

func (s *BreakSummary) fill(g *logparse.GraphBreak) {
	s.Reason, s.GBType, s.GBID = g.Reason, g.GBType, g.GBID
	for i := len(g.Frames) - 1; i >= 0; i-- {
		if g.Frames[i].File == g.File && g.Frames[i].Line == g.Line {
			s.Function = g.Frames[i].Func
			break
		}
	}
	if g.UserFrame.File != "" {
		s.UserFile, s.UserLine, s.UserFunc = g.UserFrame.File, g.UserFrame.Line, g.UserFrame.Func
		if s.Function == "" && g.UserFrame.File == g.File && g.UserFrame.Line == g.Line {
			s.Function = g.UserFrame.Func
		}
	}
}

func (s *BreakSummary) rankRecords(rank int) int {
	return s.ranks.records(rank)
}

func (s *BreakSummary) finish() {
	ranks := make([]int, 0, s.ranks.len()) // a new slice: an earlier report may hold the one before
	s.ranks.each(func(r int, _ RankStat) {
		if r >= 0 {
			ranks = append(ranks, r)
		}
	})
	slices.Sort(ranks)
	s.Ranks = ranks
	s.CompileIDs = s.cids.strings()
}

// RecompileSummary groups the recompiles of one function.
type RecompileSummary struct {
	Function string                  `json:"function"`
	File     string                  `json:"file"`
	Line     int                     `json:"line"`
	Records  int                     `json:"records"`
	Ranks    []int                   `json:"ranks"`
	Failures []logparse.GuardFailure `json:"failures"`

	Evidence []Evidence `json:"-"`
	rankSet  RankSet
	groups   []groupRef // the recompile groups its records went to (details.recompile)
	failHash []uint64   // failureHash of each of Failures
}

// addRecompile folds a recompile record into its summary and the details; in interns what they keep, lastInput is
// the interned input of the record before (the lane's or Add's: lane.go).
func (a *Aggregator) addRecompile(r *logparse.Record, in *strs, lastInput *string) {
	rc := r.Recompile
	k := recompKey{rc.Function, rc.File, rc.Line}
	s := a.recomps[k]
	if s == nil {
		s = &RecompileSummary{Function: in.of(rc.Function), File: in.of(rc.File), Line: rc.Line}
		a.recomps[recompKey{s.Function, s.File, s.Line}] = s
	}
	s.Records++
	if r.Rank >= 0 {
		s.rankSet.Add(r.Rank)
	}
	if len(s.Evidence) < MaxEvidence {
		s.Evidence = append(growTo(s.Evidence, MaxEvidence), evidenceIn(r, s.File, rc.Line, in, lastInput))
	}
	for _, f := range rc.Failures {
		if len(s.Failures) >= maxFailures {
			break
		}
		if h := failureHash(f); !s.listsFailure(f, h) {
			cid, guard := ClonePair(f.CompileID, f.Guard)
			s.Failures = append(growTo(s.Failures, maxFailures), logparse.GuardFailure{CompileID: cid, Guard: guard})
			s.failHash = append(growTo(s.failHash, maxFailures), h)
		}
	}
	a.det.recompile(r, in, &s.groups)
}

// growTo makes room in a list capped at max (a summary's places, its guard failures): for 8 at its second entry,
// then, once full, for max at once. A finding met twice is mostly one met on each rank (bench/many.sh: 8), which
// doubling from one allocated 15 entries for (a break's places: 2.2 MB of that run); a busy break or function fills
// its list, which doubling to 32 or 64 allocated twice over (9 MB). A finding met 2 to 4 times takes up to 6 entries
// more than doubling would.
func growTo[T any](s []T, max int) []T {
	switch {
	case len(s) < cap(s) || cap(s) >= max:
		return s
	case len(s) == 1:
		return slices.Grow(s, min(8, max)-1)
	case len(s) >= 8:
		return slices.Grow(s, max-len(s))
	}
	return s // full at 2 to 7 (not grown here): append doubles it
}

// maxFailures caps the distinct guard failures a recompile summary lists.
const maxFailures = 64

// listsFailure reports whether the summary's failures (at most maxFailures) hold f's compile id and guard, whose
// failureHash is h: a scan of their hashes (half a kilobyte, in one place), the strings compared only where one
// matches; cheaper than a map of them per summary.
func (s *RecompileSummary) listsFailure(f logparse.GuardFailure, h uint64) bool {
	for i, x := range s.failHash {
		if x == h && s.Failures[i].CompileID == f.CompileID && s.Failures[i].Guard == f.Guard {
			return true
		}
	}
	return false
}

var failureSeed = maphash.MakeSeed()

// failureHash hashes a failure's compile id and guard (listsFailure).
func failureHash(f logparse.GuardFailure) uint64 {
	return maphash.String(failureSeed, f.CompileID)*31 + maphash.String(failureSeed, f.Guard)
}

func sortBreaks(bs []*BreakSummary) {
	sort.Slice(bs, func(i, j int) bool {
		if bs[i].Records != bs[j].Records {
			return bs[i].Records > bs[j].Records
		}
		if bs[i].File != bs[j].File {
			return bs[i].File < bs[j].File
		}
		if bs[i].Line != bs[j].Line {
			return bs[i].Line < bs[j].Line
		}
		return bs[i].Key.What < bs[j].Key.What
	})
}

// warnedSite is where a break known from a warning is: the Tensor.item() warning's site, or for Dynamo's warning
// about an unsupported builtin (which names no site) the builtin; a graph-break record at that site, or of that
// builtin (breakSites), is the same break.
func warnedSite(key BreakKey, g *logparse.GraphBreak) string {
	switch {
	case g.Variant == logparse.BreakBuiltinWarning:
		return "builtin:" + g.Builtin
	case key.File == "": // a fragment (Fragment): the break its gb_type or reason names
		return "what:" + key.What
	}
	return key.site()
}

// Fragment reports a graph-break record pasted without its header and without a user frame (only its reason and
// torch's lines): one break of unknown site, unless a break of the input with a site has its gb_type or reason
// (breakSites: then it is that break's fragment, not another break).
func Fragment(r *logparse.Record) bool {
	return r.Kind == logparse.KindGraphBreak && r.Cut != "" && r.Break != nil && r.Break.File == "" &&
		r.Break.Variant != logparse.BreakItemWarning && r.Break.Variant != logparse.BreakBuiltinWarning
}

// breakSites are the sites a break record stands for: its own, the builtin it names (warnedSite), and its gb_type
// or reason (a fragment of it: Fragment).
func breakSites(b *BreakSummary) []string {
	if b.Key.File == "" {
		return nil // a warning or fragment itself (a.items)
	}
	if b.Sample != nil && b.Sample.Break != nil && b.Sample.Break.Builtin != "" {
		return []string{b.Key.site(), "builtin:" + b.Sample.Break.Builtin, "what:" + b.Key.What}
	}
	return []string{b.Key.site(), "what:" + b.Key.What}
}

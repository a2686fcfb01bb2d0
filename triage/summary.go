package triage

import (
	"sort"
	"strings"

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
	ItemOnly bool             `json:"-"` // known only from the Tensor.item() warning
	rankSet  map[int]int      // records per rank
	cidSet   map[logparse.CompileID]bool
	ranks    perRank // per rank: records and earliest compile id (findings_collect.go)
}

const maxEvidence = 32

func (a *Aggregator) addBreak(r *logparse.Record, ra *rankAgg) {
	g := r.Break
	key := KeyOf(g)
	var s *BreakSummary
	if g.Variant == logparse.BreakItemWarning {
		site := key.site()
		s = a.items[site]
		if s == nil {
			s = a.newBreak(key, r)
			s.ItemOnly = true
			a.items[site] = s
		}
		if ra != nil {
			ra.items[site] = true
		}
	} else {
		s = a.breaks[key]
		if s == nil {
			s = a.newBreak(key, r)
			a.breaks[s.Key] = s
		}
		if ra != nil {
			ra.breaks[s.Key] = true
		}
	}
	s.Records++
	s.ranks = s.ranks.note(r)
	if r.Rank >= 0 {
		s.rankSet[r.Rank]++
	}
	if r.CompileID.Valid() {
		s.cidSet[r.CompileID] = true
	}
	if len(s.Evidence) < maxEvidence {
		s.Evidence = append(s.Evidence, a.evidenceAt(r, g.File, g.Line))
	}
	if s.Sample.Break.Variant != logparse.BreakFull && g.Variant == logparse.BreakFull {
		s.Sample = a.breakSample(r)
		s.fill(s.Sample.Break)
	}
	if s.GBID == "" {
		s.GBID = a.names.of(g.GBID)
	}
}

// newBreak starts the summary of a distinct break; its strings are the aggregator's own (retain.go).
func (a *Aggregator) newBreak(key BreakKey, r *logparse.Record) *BreakSummary {
	key = BreakKey{File: a.names.of(key.File), Line: key.Line, What: a.names.of(key.What)}
	s := &BreakSummary{Key: key, File: key.File, Line: key.Line, Sample: a.breakSample(r),
		rankSet: map[int]int{}, cidSet: map[logparse.CompileID]bool{}}
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

func (s *BreakSummary) rankRecords(rank int) int { return s.rankSet[rank] }

func (s *BreakSummary) finish() {
	s.Ranks = sortedInts(s.rankSet)
	s.CompileIDs = make([]string, 0, len(s.cidSet))
	for c := range s.cidSet {
		s.CompileIDs = append(s.CompileIDs, c.String())
	}
	sort.Strings(s.CompileIDs)
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
	rankSet  map[int]bool
	seen     map[logparse.GuardFailure]bool // Extra left empty
}

func (a *Aggregator) addRecompile(r *logparse.Record, ra *rankAgg) {
	rc := r.Recompile
	k := recompKey{rc.Function, rc.File, rc.Line}
	s := a.recomps[k]
	if s == nil {
		s = &RecompileSummary{Function: a.names.of(rc.Function), File: a.names.of(rc.File), Line: rc.Line,
			rankSet: map[int]bool{}, seen: map[logparse.GuardFailure]bool{}}
		a.recomps[recompKey{s.Function, s.File, s.Line}] = s
	}
	s.Records++
	if r.Rank >= 0 {
		s.rankSet[r.Rank] = true
	}
	if len(s.Evidence) < maxEvidence {
		s.Evidence = append(s.Evidence, a.evidenceAt(r, rc.File, rc.Line))
	}
	for _, f := range rc.Failures {
		if len(s.Failures) >= maxFailures {
			break
		}
		id := logparse.GuardFailure{CompileID: f.CompileID, Guard: f.Guard}
		if !s.seen[id] {
			id = logparse.GuardFailure{CompileID: a.names.of(f.CompileID), Guard: strings.Clone(f.Guard)}
			s.seen[id] = true
			s.Failures = append(s.Failures, id)
		}
	}
	if ra != nil {
		ra.c.Recompiles++
	}
	a.det.recompile(r, &a.names)
}

// maxFailures caps the distinct guard failures a recompile summary lists.
const maxFailures = 64

// LimitSummary is one recompile-limit hit.
type LimitSummary struct {
	Limit      string   `json:"limit"`
	Value      int      `json:"value"`
	Function   string   `json:"function"`
	File       string   `json:"file"`
	Line       int      `json:"line"`
	LastReason string   `json:"last_reason"`
	Rank       int      `json:"rank"` // of the first hit
	CompileID  string   `json:"compile_id,omitempty"`
	Records    int      `json:"records"` // identical hits (same function, limit and last reason) grouped
	Ranks      []int    `json:"ranks"`
	Evidence   Evidence `json:"-"`
}

func (a *Aggregator) limitSummary(r *logparse.Record) LimitSummary {
	l, in := r.Limit, a.names.of
	return LimitSummary{Limit: in(l.Limit), Value: l.Value, Function: in(l.Function), File: in(l.File), Line: l.Line,
		LastReason: strings.Clone(l.LastReason), Rank: r.Rank, CompileID: r.CompileID.String(),
		Evidence: a.evidenceAt(r, l.File, l.Line)}
}

// SkipSummary is one CUDA-graph skip reason.
type SkipSummary struct {
	Reason   string     `json:"reason"`
	Records  int        `json:"records"`
	Ranks    []int      `json:"ranks"`
	Evidence []Evidence `json:"-"`
	rankSet  map[int]bool
	ranks    perRank
}

func (a *Aggregator) addSkip(r *logparse.Record, ra *rankAgg) {
	reason := hexAddr.ReplaceAllString(r.Skip.Reason, "0x…")
	s := a.skips[reason]
	if s == nil {
		reason = strings.Clone(reason)
		s = &SkipSummary{Reason: reason, rankSet: map[int]bool{}}
		a.skips[reason] = s
	}
	s.Records++
	s.ranks = s.ranks.note(r)
	if r.Rank >= 0 {
		s.rankSet[r.Rank] = true
	}
	if len(s.Evidence) < maxEvidence {
		s.Evidence = append(s.Evidence, a.evidenceAt(r, "", 0))
	}
	if ra != nil {
		ra.c.CudagraphSkips++
	}
}

// ErrorSummary is one fatal compile error.
type ErrorSummary struct {
	Class    string   `json:"class"`
	Message  string   `json:"message"`
	Inner    string   `json:"inner,omitempty"`
	File     string   `json:"file,omitempty"`
	Line     int      `json:"line,omitempty"`
	Rank     int      `json:"rank"` // of the first one
	Input    string   `json:"input"`
	Records  int      `json:"records"` // identical errors (class, message, site) grouped: one per dying process
	Ranks    []int    `json:"ranks"`
	Evidence Evidence `json:"-"`
}

func (a *Aggregator) errorSummary(r *logparse.Record) ErrorSummary {
	e, in := r.Error, a.names.of
	return ErrorSummary{Class: in(e.Class), Message: strings.Clone(e.Message), Inner: strings.Clone(e.Inner),
		File: in(e.Frame.File), Line: e.Frame.Line, Rank: r.Rank, Input: in(r.Input),
		Evidence: a.evidenceAt(r, e.Frame.File, e.Frame.Line)}
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

// groupLimits folds identical limit hits (one per event) into one entry with a count and the ranks.
func groupLimits(events []LimitSummary) []LimitSummary {
	type key struct {
		limit, function, file, reason string
		value, line                   int
	}
	out := groupEvents(events, func(e *LimitSummary) (key, int, *int, *[]int) {
		return key{e.Limit, e.Function, e.File, cidPrefix.ReplaceAllString(e.LastReason, ""), e.Value, e.Line},
			e.Rank, &e.Records, &e.Ranks
	})
	sort.SliceStable(out, func(i, j int) bool { // a stable order, whatever order the events came in
		x, y := out[i], out[j]
		if x.File != y.File || x.Line != y.Line {
			return x.File < y.File || x.File == y.File && x.Line < y.Line
		}
		if x.Function != y.Function {
			return x.Function < y.Function
		}
		if x.Limit != y.Limit {
			return x.Limit < y.Limit
		}
		return cidPrefix.ReplaceAllString(x.LastReason, "") < cidPrefix.ReplaceAllString(y.LastReason, "")
	})
	return out
}

// groupErrors folds identical errors into one entry with a count and the ranks.
func groupErrors(events []ErrorSummary) []ErrorSummary {
	type key struct {
		class, inner, msg, file string
		line                    int
	}
	out := groupEvents(events, func(e *ErrorSummary) (key, int, *int, *[]int) {
		return key{e.Class, e.Inner, hexAddr.ReplaceAllString(e.Message, "0x…"), e.File, e.Line}, e.Rank, &e.Records, &e.Ranks
	})
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.Class != y.Class {
			return x.Class < y.Class
		}
		if x.File != y.File || x.Line != y.Line {
			return x.File < y.File || x.File == y.File && x.Line < y.Line
		}
		return x.Message < y.Message
	})
	return out
}

// groupEvents keeps the first of the events that share a key, with the number of them and their ranks. fields
// gives an event's key, its rank, and where the group's count and ranks go.
func groupEvents[T any, K comparable](events []T, fields func(*T) (K, int, *int, *[]int)) []T {
	out := []T{}
	at := map[K]int{}
	ranks := map[int]map[int]bool{}
	for _, e := range events {
		k, rank, _, _ := fields(&e)
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, e)
			_, _, n, _ := fields(&out[i])
			*n = 0
			ranks[i] = map[int]bool{}
		}
		_, _, n, _ := fields(&out[i])
		*n++
		if rank >= 0 {
			ranks[i][rank] = true
		}
	}
	for i := range out {
		_, _, _, rs := fields(&out[i])
		*rs = sortedInts(ranks[i])
	}
	return out
}

package report

import (
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// A record's fields are substrings of its lines, which share one string per record: keeping any field keeps
// the whole record's text alive. The aggregator keeps counts, not records, so what it stores past Add is
// copied out: names (files, functions, gb types, inputs) through one intern table (the same few recur on every
// rank and record), one-off texts (guards, reasons) cloned, and a break's sample cut to what findings read.

// strs interns strings under the aggregator's lock; the zero value is ready.
type strs map[string]string

func (m *strs) of(s string) string {
	if s == "" {
		return ""
	}
	if v, ok := (*m)[s]; ok {
		return v
	}
	if *m == nil {
		*m = strs{}
	}
	c := strings.Clone(s)
	(*m)[c] = c
	return c
}

// evidenceAt is evidenceOf with its strings owned by the aggregator.
func (a *Aggregator) evidenceAt(r *logparse.Record, file string, line int) Evidence {
	return a.evidenceOwned(r, a.names.of(file), line)
}

// evidenceOwned is evidenceAt for a file name the aggregator owns already (a summary's): only the input is
// interned, and the input of the record before is remembered (records come file by file).
func (a *Aggregator) evidenceOwned(r *logparse.Record, file string, line int) Evidence {
	return evidenceIn(r, file, line, &a.names, &a.lastInput)
}

// evidenceIn is evidenceOwned with the intern table and the last input given (Add's, or the recompile lane's).
func evidenceIn(r *logparse.Record, file string, line int, in *strs, lastInput *string) Evidence {
	e := evidenceOf(r, file, line)
	if e.Input != *lastInput {
		*lastInput = in.of(e.Input)
	}
	e.Input = *lastInput
	return e
}

// breakSample copies what break findings read of a record (breakQuery, breakDetail, breakCode): the payload
// with its frames and debug context; not its lines.
func (a *Aggregator) breakSample(r *logparse.Record) *logparse.Record {
	g := *r.Break
	in := a.names.of
	g.File, g.GBType, g.GBID = in(g.File), in(g.GBType), in(g.GBID)
	// the explanation and hints are Dynamo's text for the gb_type, the reason and debug context often too (the
	// builtin and its argument types): the same for many sites
	g.Reason, g.Explanation, g.DebugContext = in(g.Reason), in(g.Explanation), in(g.DebugContext)
	g.Hints = a.names.list(g.Hints)
	g.Frames = make([]logparse.Frame, len(r.Break.Frames))
	uf := g.UserFrame
	ufCode := "" // the user frame's line, copied once: it is mostly one of the frames'
	for i, f := range r.Break.Frames {
		g.Frames[i] = logparse.Frame{File: in(f.File), Line: f.Line, Func: in(f.Func), Code: strings.Clone(f.Code)}
		if f.Code == uf.Code {
			ufCode = g.Frames[i].Code
		}
	}
	if ufCode == "" {
		ufCode = strings.Clone(uf.Code)
	}
	g.UserFrame = logparse.Frame{File: in(uf.File), Line: uf.Line, Func: in(uf.Func), Code: ufCode}
	s := &logparse.Record{Kind: r.Kind, Source: r.Source, Input: in(r.Input), Rank: r.Rank, LocalRank: r.LocalRank,
		Level: r.Level, PID: r.PID, Time: r.Time, CompileID: r.CompileID, Artifact: in(r.Artifact),
		FirstLine: r.FirstLine, LastLine: r.LastLine, Era: r.Era, Break: &g}
	return s
}

// list interns every string of a list into a new list.
func (m *strs) list(list []string) []string {
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = m.of(s)
	}
	return out
}

// clonePair copies a and b (their record's text is not kept) in one allocation, each a part of it.
func ClonePair(a, b string) (string, string) {
	if a == "" || b == "" { // a concatenation with "" is the other string itself, not a copy
		return strings.Clone(a), strings.Clone(b)
	}
	both := a + b
	return both[:len(a)], both[len(a):]
}

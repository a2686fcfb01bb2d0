package render

import (
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// What jsonAppender writes for the report's three long lists: each element's members in the order, and with
// the omitempty rules, of its struct tags (encoding/json's output, byte for byte: TestAppendJSONMatchesEncoder
// fills every exported field at random, so a field added to one of these types without a line here fails it).

// breakJSON writes a graph break of graph_breaks (BreakSummary's tags).
func (w *jsonAppender) breakJSON(s *report.BreakSummary) {
	if s == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.open('{')
	w.str("file", s.File)
	w.num("line", s.Line)
	w.str("function", s.Function)
	w.str("reason", s.Reason)
	w.str("gb_type", s.GBType)
	w.str("gb_id", s.GBID)
	w.num("records", s.Records)
	w.ints("ranks", s.Ranks)
	w.strs("compile_ids", s.CompileIDs)
	w.strOmit("user_file", s.UserFile)
	w.numOmit("user_line", s.UserLine)
	w.strOmit("user_function", s.UserFunc)
	w.close('}')
}

// recompileJSON writes a function of recompiles (RecompileSummary's tags, logparse.GuardFailure's).
func (w *jsonAppender) recompileJSON(s *report.RecompileSummary) {
	if s == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.open('{')
	w.str("function", s.Function)
	w.str("file", s.File)
	w.num("line", s.Line)
	w.num("records", s.Records)
	w.ints("ranks", s.Ranks)
	if w.listStart("failures", s.Failures == nil) {
		for i := range s.Failures {
			f := &s.Failures[i]
			w.next()
			w.open('{')
			w.strOmit("compile_id", f.CompileID)
			w.str("guard", f.Guard)
			w.strOmit("extra", f.Extra)
			w.close('}')
		}
		w.close(']')
	}
	w.close('}')
}

// findingJSON writes a finding as Finding.MarshalJSON does (its jsonForm): Finding's tags, with ranks and
// related never null and every member of each evidence entry.
func (w *jsonAppender) findingJSON(f *findings.Finding) {
	w.open('{')
	w.str("id", f.ID)
	w.str("kind", string(f.Kind))
	w.str("severity", f.Severity)
	w.str("category", f.Category)
	w.str("title", f.Title)
	w.strOmit("basis", f.Basis)
	w.str("what", f.What)
	w.strOmit("file", f.File)
	w.numOmit("line", f.Line)
	w.strOmit("function", f.Function)
	w.strOmit("module", f.Module)
	if c := f.CompiledAt; c != nil {
		w.Key("compiled_at")
		w.open('{')
		w.str("file", c.File)
		w.num("line", c.Line)
		w.str("function", c.Function)
		if c.Dynamic != nil {
			w.boolean("dynamic", *c.Dynamic)
		}
		w.strOmit("mode", c.Mode)
		w.boolOmit("fullgraph", c.Fullgraph)
		w.close('}')
	}
	w.strOmit("do", f.Do)
	w.numOmit("resume_line", f.Resume)
	w.strOmit("gb_id", f.GBID)
	w.strOmit("gb_type", f.GBType)
	w.num("records", f.Records)
	if len(f.CompileIDs) > 0 {
		w.strs("compile_ids", f.CompileIDs)
	}
	w.boolean("expected", f.Expected)
	w.boolOmit("caught", f.Caught)
	w.boolOmit("suppressed", f.Suppressed)
	w.boolOmit("peer_gone", f.PeerGone)
	w.boolOmit("in_recompiling_frame", f.InRecompilingFrame)
	if len(f.Classes) > 0 && w.listStart("classes", false) {
		for i := range f.Classes {
			c := &f.Classes[i]
			w.next()
			w.open('{')
			w.str("class", c.Class)
			w.strOmit("source", c.Source)
			w.str("detail", c.Detail)
			w.num("dim", c.Dim)
			w.strOmit("old", c.Old)
			w.strOmit("new", c.New)
			w.boolOmit("expected", c.Expected)
			w.close('}')
		}
		w.close(']')
	}
	w.boolOmit("limit_hit", f.LimitHit)
	w.boolOmit("variants", f.Variants)
	w.str("playbook", f.Playbook)
	w.strOmit("why", f.Why)
	w.strOmit("detail", f.Detail)
	w.ints("ranks", orEmpty(f.Ranks))
	w.strs("related", orEmpty(f.Related))
	w.listStart("evidence", false)
	for i := range f.Evidence {
		e := &f.Evidence[i]
		w.next()
		w.open('{')
		w.num("rank", e.Rank)
		w.str("compile_id", e.CompileID)
		w.str("file", e.File)
		w.num("line", e.Line)
		w.str("input", e.Input)
		w.num("input_line", e.InputLine)
		w.close('}')
	}
	w.close(']')
	w.close('}')
}

// orEmpty is s, or an empty slice for nil (a list JSON has as [], never null).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

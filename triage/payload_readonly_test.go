package triage_test

import (
	"encoding/json"
	"io"
	"path/filepath"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/logparse/trace"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Counting's payloads are read, never written, from parsing to the report (what lets the records of one remembered
// text share parts of it, logparse/memo.go, and keeps Record.SameBreak's promise of equal payloads):
// every payload of real logs printed by several ranks, and of a generated log of many repeats, is byte-identical
// (as JSON) before and after the aggregation, the lane, Report, the analysis and the JSON, text and Markdown reports.
func TestCountedPayloadsAreReadOnly(t *testing.T) {
	paths := []string{filepath.Join(triage.Fixtures, "torch-2.14"), filepath.Join(triage.Fixtures, "torch-2.6"), manyRecompiles(t)}
	found, err := logparse.Find(paths)
	if err != nil {
		t.Fatal(err)
	}
	var recs []*logparse.Record
	sink := logparse.Sink{Emit: func(r *logparse.Record) { recs = append(recs, r) }, Trace: trace.Parse, OnRank: func(int) {}, OnFacts: func(logparse.Facts) {}}
	if errs := logparse.ParseInputs(found.Inputs, 16, false, nil, sink); len(errs) > 0 {
		t.Fatal(errs[0])
	}
	snapshot := func() []byte {
		var payloads []any
		for _, r := range recs {
			payloads = append(payloads, []any{r.Break, r.Recompile, r.Limit, r.Skip, r.Error, r.Lines, r.Cut, r.Parts,
				r.Warning, r.StackAt, r.Dump, r.DDP, r.Cache})
		}
		b, err := json.Marshal(payloads)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	repeats := 0
	for _, r := range recs {
		if r.SameBreak() != 0 {
			repeats++
		}
	}
	if repeats < 100 {
		t.Fatalf("only %d records of a remembered text", repeats)
	}
	before := snapshot()
	agg := report.NewAggregator()
	for _, in := range found.Inputs {
		agg.AddInput(in.Name, in.Rank)
	}
	agg.FoldAside()
	for _, r := range recs {
		agg.Add(r)
	}
	agg.Settle()
	an := triage.Analyze(agg.Report(), nil, nil)
	for _, format := range []string{"json", "text", "markdown"} {
		if err := render.WriteReport(io.Discard, an, format, text.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if after := snapshot(); string(after) != string(before) {
		t.Fatal("a payload changed between parsing and the report")
	}
}

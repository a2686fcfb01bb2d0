package triage

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/logparse/trace"
	"github.com/torchtriage/torchtriage/triage/report"
)

type expectedCounts struct {
	GraphBreaks         int   `json:"graph_breaks"`
	Recompiles          int   `json:"recompiles"`
	RecompileLimitHits  int   `json:"recompile_limit_hits"`
	CudagraphSkips      int   `json:"cudagraph_skips"`
	CompileErrors       int   `json:"compile_errors"`
	CudagraphPartitions int   `json:"cudagraph_partitions"`
	CudagraphRerecords  int   `json:"cudagraph_rerecords"`
	RuntimeErrors       int   `json:"runtime_errors"`
	Ranks               []int `json:"ranks"`
}

const Fixtures = "../testdata/fixtures"

func LoadExpected(t *testing.T) map[string]expectedCounts {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Fixtures, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]expectedCounts
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// expectedNames lists the fixtures of expected.json in order.
func ExpectedNames(exp map[string]expectedCounts) []string {
	names := make([]string, 0, len(exp))
	for k := range exp {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// TestFixtureCounts checks every fixture listed in expected.json against its ground truth.
func TestFixtureCounts(t *testing.T) {
	exp := LoadExpected(t)
	for _, name := range ExpectedNames(exp) {
		want := exp[name]
		t.Run(name, func(t *testing.T) {
			got := countsOf(t, filepath.Join(Fixtures, name))
			if want.Ranks == nil {
				want.Ranks = []int{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

// Identical limit hits and compile errors (a log and another with its records, as from two identical processes) are one JSON
// entry each with records = 2, while the counts still count every event. (The same file named twice is read
// once: TestSameFileNamedTwiceIsReadOnce.)
func TestIdenticalEventsAreGrouped(t *testing.T) {
	lim := filepath.Join(Fixtures, "torch-2.14/gb_recompile.triage.log")
	errf := filepath.Join(Fixtures, "torch-2.14/r07_fullgraph.triage.log")
	rep, _, err := BuildReport([]string{lim, copyTo(t, lim), errf, copyTo(t, errf)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts.RecompileLimitHits != 2 || len(rep.RecompileLimitHits) != 1 || rep.RecompileLimitHits[0].Records != 2 {
		t.Fatalf("limit hits: counts %d, entries %+v", rep.Counts.RecompileLimitHits, rep.RecompileLimitHits)
	}
	if rep.Counts.CompileErrors != 2 || len(rep.CompileErrors) != 1 || rep.CompileErrors[0].Records != 2 || len(rep.ErrorEvents()) != 2 {
		t.Fatalf("compile errors: counts %d, entries %+v", rep.Counts.CompileErrors, rep.CompileErrors)
	}
}

// copyTo copies a file into a new temporary directory, with a line of output added (a byte-for-byte copy is
// read once: it is no second process), and returns the copy's path.
func copyTo(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, "another process\n"...)
	out := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// The same file named twice is one input: its events count once.
func TestSameFileNamedTwiceIsReadOnce(t *testing.T) {
	lim := filepath.Join(Fixtures, "torch-2.14/gb_recompile.triage.log")
	l, err := report.Load([]string{lim, lim}, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Inputs) != 1 || len(l.ReadOnce) != 1 || l.ReadOnce[0].Why != "named_twice" || l.Report.Counts.RecompileLimitHits != 1 || l.Report.Counts.Recompiles != 7 {
		t.Errorf("inputs %v, aliases %v, counts %+v", l.Inputs, l.ReadOnce, l.Report.Counts)
	}
}

// A load of text files only keeps no per-record key (the keys drop a trace's twins; with no trace they were the
// one memory the aggregation kept per record): the report is the same, and with a trace the keys are kept.
func TestTextOnlyLoadKeepsNoEventKeys(t *testing.T) {
	keys := func(textOnly bool, paths ...string) (int, *report.Report) {
		found, err := logparse.Find(paths)
		if err != nil {
			t.Fatal(err)
		}
		agg := report.NewAggregator()
		if textOnly && found.TextOnly {
			agg.TextOnly()
		}
		errs := logparse.ParseInputs(found.Inputs, 4, false, nil, logparse.Sink{Emit: agg.Add, OnRank: agg.AddRank, OnFacts: agg.AddFacts, Trace: trace.Parse})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		n := 0
		for _, b := range agg.Unseen.Blocks {
			n += len(b)
		}
		return n, agg.Report()
	}
	text := filepath.Join(Fixtures, "torch-2.14/gb_recompile.triage.log")
	n, rep := keys(true, text)
	all, full := keys(false, text)
	if n != 0 || all == 0 || rep.Counts != full.Counts || full.Counts.Recompiles != 7 {
		t.Errorf("text only: %d keys kept (%d without TextOnly), counts %+v, %+v", n, all, rep.Counts, full.Counts)
	}
	text, trace := filepath.Join(Fixtures, "torch-2.14/gb_recompile.withtrace.log"), filepath.Join(Fixtures, "torch-2.14/gb_recompile.trace")
	n, rep = keys(true, text, trace)
	if _, both := keys(false, text, trace); n == 0 || rep.Counts != both.Counts {
		t.Errorf("with its trace: %d keys kept, counts %+v, want %+v", n, rep.Counts, both.Counts)
	}
}

package triage

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/logparse/trace"
	"github.com/torchtriage/torchtriage/triage/report"
)

// BenchmarkParseFixtures parses every text fixture (all eras, ranks) and aggregates it, as `report` does.
// For the 1 GB end-to-end check against grep, see bench/perf.sh.
func BenchmarkParseFixtures(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(Fixtures, "torch-*", "*.log"))
	var data [][]byte
	total := 0
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
		total += len(d)
	}
	if big := os.Getenv("TORCHTRIAGE_BENCH_FILE"); big != "" {
		d, err := os.ReadFile(big)
		if err != nil {
			b.Fatal(err)
		}
		data, total = [][]byte{d}, len(d)
	}
	b.SetBytes(int64(total))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		agg := report.NewAggregator()
		for _, d := range data {
			p := logparse.NewParser(logparse.Options{Rank: -1, SkipOther: true, OnRank: agg.AddRank}, agg.Add)
			p.Write(d)
			p.Flush()
		}
		_ = agg.Report()
	}
}

// BenchmarkReportFile runs the whole `report` path (discovery, parallel parse, aggregation) on
// $TORCHTRIAGE_BENCH_FILE (skipped when unset; bench/perf.sh builds a 1 GB one).
func BenchmarkReportFile(b *testing.B) {
	path := os.Getenv("TORCHTRIAGE_BENCH_FILE")
	if path == "" {
		b.Skip("TORCHTRIAGE_BENCH_FILE not set")
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	// the same collector settings as CmdReport
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(192 << 20))
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	for i := 0; i < b.N; i++ {
		if _, _, err := BuildReport([]string{path}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAggregateFile times the aggregation alone (Aggregator.Add of every record, then Report) of the records
// of $TORCHTRIAGE_BENCH_FILE, parsed once beforehand as report parses them (bench/many.sh builds one with many
// distinct findings).
func BenchmarkAggregateFile(b *testing.B) {
	path := os.Getenv("TORCHTRIAGE_BENCH_FILE")
	if path == "" {
		b.Skip("TORCHTRIAGE_BENCH_FILE not set")
	}
	found, err := logparse.Find([]string{path})
	if err != nil {
		b.Fatal(err)
	}
	var recs []*logparse.Record
	var facts []logparse.Facts
	sink := logparse.Sink{Emit: func(r *logparse.Record) { recs = append(recs, r) }, Trace: trace.Parse, OnRank: func(int) {},
		OnFacts: func(f logparse.Facts) { facts = append(facts, f) }}
	if errs := logparse.ParseInputs(found.Inputs, 16, false, nil, sink); len(errs) > 0 {
		b.Fatal(errs[0])
	}
	b.ResetTimer()
	for b.Loop() {
		agg := report.NewAggregator()
		for _, in := range found.Inputs {
			agg.AddInput(in.Name, in.Rank)
		}
		for _, f := range facts {
			agg.AddFacts(f)
		}
		for _, r := range recs {
			agg.Add(r)
		}
		_ = agg.Report()
	}
}

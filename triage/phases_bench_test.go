package triage_test

import (
	"io"
	"os"
	"runtime/debug"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// BenchmarkPhases times each phase of `report` on $TORCHTRIAGE_BENCH_FILE (bench/many.sh's file) apart: the
// parse alone (records kept), the aggregation of those records, Report, the analysis and the text and JSON
// reports. Skipped when unset.
func BenchmarkPhases(b *testing.B) {
	path := os.Getenv("TORCHTRIAGE_BENCH_FILE")
	if path == "" {
		b.Skip("TORCHTRIAGE_BENCH_FILE not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	parse := func() []*logparse.Record {
		var recs []*logparse.Record
		p := logparse.NewParser(logparse.Options{Rank: -1, SkipOther: true}, func(r *logparse.Record) { recs = append(recs, r) })
		p.Write(data)
		p.Flush()
		return recs
	}
	recs := parse()
	aggregate := func() *report.Aggregator {
		agg := report.NewAggregator()
		for _, r := range recs {
			agg.Add(r)
		}
		return agg
	}
	// no collector: each phase's own work, not the collection of the records all phases hold
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	set, _ := playbooks.Load("")
	rep := aggregate().Report()
	an := triage.AnalyzeRun(rep, set, nil, nil)
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for range b.N {
			parse()
		}
	})
	b.Run("aggregate", func(b *testing.B) {
		for range b.N {
			aggregate()
		}
	})
	// parse and aggregate chunk by chunk (~1 MB of text at a time): the records are aggregated while in cache
	b.Run("parse+aggregate-hot", func(b *testing.B) {
		for range b.N {
			agg := report.NewAggregator()
			var recs []*logparse.Record
			p := logparse.NewParser(logparse.Options{Rank: -1, SkipOther: true}, func(r *logparse.Record) { recs = append(recs, r) })
			for off := 0; off < len(data); off += 1 << 20 {
				p.Write(data[off:min(off+1<<20, len(data))])
				for _, r := range recs {
					agg.Add(r)
				}
				recs = recs[:0]
			}
			p.Flush()
			for _, r := range recs {
				agg.Add(r)
			}
		}
	})
	b.Run("report", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			agg := aggregate()
			b.StartTimer()
			agg.Report()
		}
	})
	b.Run("analyze", func(b *testing.B) {
		for range b.N {
			triage.AnalyzeRun(rep, set, nil, nil)
		}
	})
	for _, format := range []string{"text", "json"} {
		b.Run("write-"+format, func(b *testing.B) {
			for range b.N {
				if err := render.WriteReport(io.Discard, an, format, text.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

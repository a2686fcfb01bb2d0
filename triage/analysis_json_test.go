package triage_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// WriteReport writes the JSON report as json.Encoder writes ReportJSON (with Finding.MarshalJSON), byte for byte.
func TestReportJSONForm(t *testing.T) {
	for _, name := range []string{"torch-2.14/gb_recompile.triage.log", "torch-2.6/r05_dist_c10d.triage.log", "torch-2.14/r03_cache_limit.triage.log"} {
		rep, _, err := triage.BuildReport([]string{filepath.Join(triage.Fixtures, name)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		an := triage.Analyze(rep, nil, nil)
		var want, got strings.Builder
		enc := json.NewEncoder(&want)
		enc.SetIndent("", " ")
		if err := enc.Encode(render.JSONOf(an)); err != nil {
			t.Fatal(err)
		}
		if err := render.WriteReport(&got, an, "json", text.Options{}); err != nil {
			t.Fatal(err)
		}
		if len(an.Findings) == 0 || got.String() != want.String() {
			t.Errorf("%s: %d findings; WriteReport's JSON differs from ReportJSON's", name, len(an.Findings))
		}
	}
}

// WriteReport encodes the long lists in chunks on several goroutines and puts them in the skeleton's place:
// the bytes are json.Encoder's, for every fixture (chunks of one and of three elements), and for a report
// whose lists are nil (null) or empty ([]).
func TestReportJSONInChunks(t *testing.T) {
	defer func(n int) { render.JsonChunk = n }(render.JsonChunk)
	files, _ := filepath.Glob(filepath.Join(triage.Fixtures, "*", "*.log"))
	var ans []*triage.Analysis
	for _, f := range files {
		rep, _, err := triage.BuildReport([]string{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ans = append(ans, triage.Analyze(rep, nil, nil))
	}
	ans = append(ans, &triage.Analysis{Report: &report.Report{}}, &triage.Analysis{Report: &report.Report{GraphBreaks: []*report.BreakSummary{},
		Recompiles: []*report.RecompileSummary{}}, Findings: []findings.Finding{}})
	long := 0
	for _, chunk := range []int{1, 3} {
		render.JsonChunk = chunk
		for i, an := range ans {
			var want, got strings.Builder
			enc := json.NewEncoder(&want)
			enc.SetIndent("", " ")
			if err := enc.Encode(render.JSONOf(an)); err != nil {
				t.Fatal(err)
			}
			if err := render.WriteReport(&got, an, "json", text.Options{}); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Fatalf("analysis %d, chunks of %d: WriteReport's JSON differs from json.Encoder's", i, chunk)
			}
			if len(an.Findings) > chunk && len(an.Report.GraphBreaks) > chunk {
				long++
			}
		}
	}
	if long == 0 {
		t.Fatal("no fixture has lists longer than a chunk")
	}
}

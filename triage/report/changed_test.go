package report_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/report"
)

// A file truncated or rewritten while it was read (logparse.Facts.Changed, what ParseInput learns beside its
// stderr warning) makes the report's evidence partial, with the reason and the input it is of: its counts are
// what was read, not the whole file.
func TestFileChangedWhileReadIsPartialEvidence(t *testing.T) {
	agg := report.NewAggregator()
	agg.AddInput("a.log", -1)
	agg.AddInput("b.log", -1)
	agg.AddFacts(logparse.Facts{Input: "b.log", Changed: true})
	rep := agg.Report()
	b, err := json.Marshal(rep.Evidence)
	if err != nil {
		t.Fatal(err)
	}
	var ev struct {
		Partial        bool     `json:"partial"`
		PartialReasons []string `json:"partial_reasons"`
	}
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	if !ev.Partial || len(ev.PartialReasons) != 1 || !strings.Contains(ev.PartialReasons[0], "truncated or rewritten while being read") ||
		!strings.HasSuffix(ev.PartialReasons[0], "(in b.log)") {
		t.Errorf("evidence partial %v %q, want partial: b.log changed while being read", ev.Partial, ev.PartialReasons)
	}
}

package triage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// A break's "Developer debug context:" line reaches its playbook query whether the log's lines are kept (a live
// run) or not (`report`, an opened run): the same record gives the same finding.
func TestDebugContextWithAndWithoutText(t *testing.T) {
	path := filepath.Join(Fixtures, "torch-2.14", "gb_recompile.triage.log")
	for _, keep := range []bool{false, true} {
		agg := report.NewAggregator()
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		err = logparse.Parse(f, logparse.Options{Input: path, Rank: -1, KeepText: keep, SkipOther: !keep}, agg.Add)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, b := range agg.Report().GraphBreaks {
			if b.Line == 12 {
				found = true
				q := findings.BreakQuery(b)
				if !strings.Contains(q.Reason, "Developer debug context: builtin print [<class 'torch._dynamo.variables.constant.ConstantVariable'>]") {
					t.Errorf("lines kept %v: the print break's query has no debug context: %q", keep, q.Reason)
				}
			}
		}
		if !found {
			t.Fatal("no break at line 12")
		}
	}
}

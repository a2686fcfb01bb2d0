package triage

import (
	"fmt"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Frames of one name compiled in the same time (a trace's zero seconds: thousands of test functions named fn) are
// listed in one order, by file and line, not the map's: the same inputs give the same report every time.
func TestCompileSummariesOneOrder(t *testing.T) {
	order := func() string {
		a := report.NewAggregator()
		lines := []int{10, 11, 10, 10}
		for i, f := range []string{"/t/test_misc.py", "/t/test_codecache.py", "/t/test_a.py", "/t/test_codecache.py"} {
			a.AddCompile(&logparse.Record{Kind: logparse.KindCompile, Rank: -1,
				Compile: &logparse.FrameCompile{Function: "fn", File: f, Line: lines[i]}})
		}
		out, _ := a.CompileSummaries()
		s := ""
		for _, c := range out {
			s += fmt.Sprintf("%s:%d ", c.File, c.Line)
		}
		return s
	}
	want := "/t/test_a.py:10 /t/test_codecache.py:10 /t/test_codecache.py:11 /t/test_misc.py:10 "
	for range 100 {
		if got := order(); got != want {
			t.Fatalf("order %q, want %q", got, want)
		}
	}
}

package trace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
)

// Every record of a TORCH_TRACE file carries the glog time stamp of its envelope line ("V1127 00:46:14.296000
// …"), on the clock of the text logs: the recompiles and the limit hit of trace-limit had none, so the TUI's
// timeline said the trace carried no time stamps.
func TestTraceRecordsCarryTheirLinesTimeStamps(t *testing.T) {
	paths, _ := filepath.Glob("../../testdata/recorded/trace-limit/tr_limit/*.log")
	if len(paths) != 1 {
		t.Fatalf("trace: %v", paths)
	}
	f, err := os.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kinds := map[logparse.Kind]int{}
	err = Parse(f, logparse.Options{Rank: -1}, func(r *logparse.Record) {
		kinds[r.Kind]++
		if r.Time.IsZero() {
			t.Errorf("%v record of line %d has no time", r.Kind, r.FirstLine)
		} else if r.Time.Year() != 0 {
			t.Errorf("%v record of line %d: %v is not on glog's clock (year 0)", r.Kind, r.FirstLine, r.Time)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if kinds[logparse.KindRecompile] != 2 || kinds[logparse.KindLimitHit] != 1 {
		t.Errorf("kinds %v", kinds)
	}
}

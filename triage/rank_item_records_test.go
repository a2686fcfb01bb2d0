package triage

import (
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
)

// A rank's Tensor.item() warning (a break of its rank, known from the warning alone: gb_recompile's 2.14 log
// without TORCH_LOGS, as two ranks print it) counted in that rank's distinct breaks but not in its records:
// per_rank read rank 0 "1 break, 0 records" under a run of "1 distinct (1 record)". Every break record of a
// prefixed line is some rank's: the ranks' records add up to the run's.
func TestRankItemWarningRecordsAreTheRanks(t *testing.T) {
	p := testlogs.TwoRankItemLog(t, Fixtures)
	rep := LoadReport(t, p)
	if rep.Counts.GraphBreaks != 1 || rep.Counts.GraphBreakRecords != 1 {
		t.Fatalf("run counts %+v: the fixture should show one break, from its warning", rep.Counts)
	}
	sum := 0
	for rank, c := range rep.PerRank {
		if c.GraphBreaks > 0 && c.GraphBreakRecords == 0 {
			t.Errorf("rank %s: %d breaks of no record", rank, c.GraphBreaks)
		}
		sum += c.GraphBreakRecords
	}
	if sum != rep.Counts.GraphBreakRecords {
		t.Errorf("the ranks' break records add up to %d, the run's are %d", sum, rep.Counts.GraphBreakRecords)
	}
}

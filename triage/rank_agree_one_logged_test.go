package triage_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// One rank logged its graph break (rank 0 of the real silenced-rank run, 2.14.1), one silenced its logging (rank 1:
// its probe counted the break its log does not show), and a third's probe counted no graph break at all (rank 2,
// added: synthetic). Rank 2's difference is earned: rank 0 had at least that break, rank 2 exactly none. With one
// rank of records the agreement read "not compared" as a whole (the earned difference beside an unearned
// agreement was found only for two or more ranks with records).
func TestEarnedDifferenceBesideOneLoggedRank(t *testing.T) {
	rec := filepath.Join("..", "testdata", "recorded", "silenced-rank", "runs", "0001-breaks")
	dir := syntheticRanks(t, rec, "silenced-rank-and-breakless-rank", 3, map[int]func(map[string]any){2: noBreak})
	const differ = "rank 2 differs from rank 0: missing graph break "
	out := triagetest.ReportText(t, 1000, dir)
	l := strings.TrimPrefix(lineWith(out, "Rank agreement:"), "Rank agreement: ")
	if !strings.HasPrefix(l, differ) || !strings.Contains(l, "rank 2 as its probe counted (no log record names it): no graph break") ||
		!strings.Contains(l, "rank 1 not compared: ") || strings.Contains(l, "rank 0 not compared") || strings.Contains(l, "ranks 0,1 not compared") {
		t.Fatalf("rank agreement %q", l)
	}
	code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true}}, dir)
	if f := lineWith(out, "FAIL [--ranks-agree]"); code != gate.ExitFailed || !strings.Contains(f, differ) {
		t.Errorf("check: exit %d\n%s", code, out)
	}
}

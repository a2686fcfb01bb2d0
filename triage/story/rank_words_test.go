package story

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// twoRankItemLog is testlogs.TwoRankItemLog of the fixtures.
func twoRankItemLog(t *testing.T) string {
	return testlogs.TwoRankItemLog(t, filepath.Join("..", "..", "testdata", "fixtures"))
}

// One rank's count words by the run's rules (Rules.Word) say what the report's "Per rank" says of it: a kind that
// prints only while its TORCH_LOGS name is on, with the name off, is "at least N" where the rank printed some and no
// count where it printed none ("breaks not logged"), whatever the other ranks printed. Rank 1 read "≥0" ("at least
// 0 breaks") beside rank 0's Tensor.item() break: the run's count was a floor, so every rank's was.
func TestRankWordsAreTheReportsPerRank(t *testing.T) {
	l, err := report.Load([]string{twoRankItemLog(t)}, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	zero := 0
	an := triage.AnalyzeRun(l.Report, nil, nil, &report.RunFacts{Outcome: report.OutcomeCompleted, ExitCode: &zero, TorchLogsSet: true})
	var b bytes.Buffer
	render.WriteReportText(&b, an, text.Options{Width: 1000})
	rl := RulesOf(an)
	for rank, want := range map[string][2]string{"0": {"at least 1 break", "recompiles not logged"}, "1": {"breaks not logged", "recompiles not logged"}} {
		c, ok := an.Report.PerRank[rank]
		if !ok {
			t.Fatalf("rank %s: no counts in the report:\n%s", rank, b.String())
		}
		got := [2]string{rl.Word(CountGraphBreaks, c.GraphBreaks, ShortNouns).Words, rl.Word(CountRecompiles, c.Recompiles, ShortNouns).Words}
		if got != want {
			t.Errorf("rank %s: %q, want %q", rank, got, want)
		}
		line := "rank " + rank + ": " + want[0] + ", " + want[1] + ", "
		if !strings.Contains(b.String(), line) {
			t.Errorf("the report's Per rank lacks %q:\n%s", line, b.String())
		}
	}
}

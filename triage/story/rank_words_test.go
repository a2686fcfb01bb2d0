package story

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
)

// twoRankItemLog is a real 2.14 log of a run without TORCH_LOGS (gb_recompile.no_torch_logs.log) as two ranks
// print it: rank 0 all of it, its Tensor.item() graph-break warning included (it prints whatever TORCH_LOGS
// says), rank 1 its recompile-limit hit only.
func twoRankItemLog(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "torch-2.14", "gb_recompile.no_torch_logs.log"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if l == "" {
			continue
		}
		b.WriteString("[rank0]:" + l)
		if strings.Contains(l, "convert_frame.py") {
			b.WriteString("[rank1]:" + l)
		}
	}
	path := filepath.Join(t.TempDir(), "two.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// One rank's count words by the run's rules (Rules.Word) say what the report's "Per rank" says of it: a kind that
// prints only while its TORCH_LOGS name is on, with the name off, is "at least N" where the rank printed some and no
// count where it printed none ("breaks not logged"), whatever the other ranks printed. Rank 1 read "≥0" ("at least
// 0 breaks") beside rank 0's Tensor.item() break: the run's count was a floor, so every rank's was.
func TestRankWordsAreTheReportsPerRank(t *testing.T) {
	l, err := triage.Load([]string{twoRankItemLog(t)}, triage.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	zero := 0
	an := triage.AnalyzeRun(l.Report, nil, nil, &triage.RunFacts{Outcome: triage.OutcomeCompleted, ExitCode: &zero, TorchLogsSet: true})
	var b bytes.Buffer
	triage.WriteReportText(&b, an, triage.TextOptions{Width: 1000})
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

package tui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/session"
)

// A live 2-rank run that hangs (real torch 2.14.1, gloo, testdata/dist-hangs/runs/h01_cond_allreduce.check-2.14-
// threads: rank 0 in all_reduce, rank 1 in barrier), after the user pressed s: the main screen listed the hang
// finding, cut to "all_reduce vs barri…", and said "may be hung" in the stall line, but nowhere where each rank
// waits, which the analysis knew (report said it). During the run the main screen now says what report says,
// from the verdict: "Hung: rank 0 waits in all_reduce at h01_cond_allreduce.py:28 · rank 1 in barrier at …".
func TestLiveRunSaysWhereEachRankWaits(t *testing.T) {
	dir := filepath.Join("..", "testdata", "dist-hangs", "runs", "h01_cond_allreduce.check-2.14-threads")
	l, err := report.Load([]string{dir}, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep := l.Report
	probes, _ := session.ReadProbes(dir)
	run := session.RunFactsOfDir(dir)
	live := *run // the same run while it still runs: the stall goes on, no end
	live.Outcome, live.ExitCode, live.StopReason = report.OutcomeRunning, nil, ""
	live.Stalls = append([]report.StallFact(nil), run.Stalls...)
	last := &live.Stalls[len(live.Stalls)-1]
	last.Until, last.Resumed = time.Time{}, false
	a := triage.AnalyzeRun(rep, builtinSet(t), probes, &live)
	if a.Verdict.State != triage.StateHung {
		t.Fatalf("the live analysis: %s %q", a.Verdict.State, a.Verdict.Summary)
	}
	for _, size := range [][2]int{{120, 32}, {80, 24}} {
		m := liveModel(t, size[0], size[1])
		r := feedRun(t, m, 1, "", "breaks", "graph_breaks,recompiles", -1)
		r.snap = snapshotOf(session.Batch{RunID: 1, Analysis: a}, r.snap)
		screen := strings.Join(strings.Fields(plain(m)), " ")
		for _, want := range []string{"Hung: rank 0 waits in all_reduce at h01_cond_allreduce.py:28", "rank 1 in barrier at h01_cond_allreduce.py:30"} {
			if !strings.Contains(screen, want) {
				t.Errorf("%dx%d: the screen lacks %q:\n%s", size[0], size[1], want, plain(m))
			}
		}
	}
}

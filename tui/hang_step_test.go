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

// hungLive is the analysis of the real hung 2-rank run (testdata/dist-hangs/runs/h01_cond_allreduce.check-2.14-
// threads) as it read while the run still went on (the stall ongoing, no end).
func hungLive(t *testing.T) *triage.Analysis {
	t.Helper()
	dir := filepath.Join("..", "testdata", "dist-hangs", "runs", "h01_cond_allreduce.check-2.14-threads")
	l, err := report.Load([]string{dir}, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	probes, _ := session.ReadProbes(dir)
	live := *session.RunFactsOfDir(dir)
	live.Outcome, live.ExitCode, live.StopReason = report.OutcomeRunning, nil, ""
	live.Stalls = append([]report.StallFact(nil), live.Stalls...)
	last := &live.Stalls[len(live.Stalls)-1]
	last.Until, last.Resumed = time.Time{}, false
	a := triage.AnalyzeRun(l.Report, builtinSet(t), probes, &live)
	if a.Verdict.State != triage.StateHung {
		t.Fatalf("the live analysis: %s %q", a.Verdict.State, a.Verdict.Summary)
	}
	return a
}

// The checklist of a hung run proposes "Unblock the ranks first", whose stop-when says to relaunch with preset
// distributed (TORCH_DISTRIBUTED_DEBUG=DETAIL); enter on the checklist ran the step under the cursor, which was
// step 1 (eager): one key relaunched the wrong run. Now the checklist opens on the distributed step, says what
// enter does, and enter relaunches (after asking, a run being live) with preset distributed.
func TestHangStepRelaunchesIntoDistributedInOneKey(t *testing.T) {
	m := liveModel(t, 120, 32)
	r := feedRun(t, m, 1, "", "breaks", "graph_breaks,recompiles", -1)
	r.snap = snapshotOf(session.Batch{RunID: 1, Analysis: hungLive(t)}, r.snap)
	press(m, "n")
	screen := strings.Join(strings.Fields(plain(m)), " ")
	if !strings.Contains(screen, "Unblock the ranks first") || !strings.Contains(screen, "Enter relaunches with preset") {
		t.Fatalf("the checklist:\n%s", plain(m))
	}
	press(m, "enter")
	if m.pre.name != "distributed" || m.launchSpec().Preset != "distributed" {
		t.Errorf("enter chose preset %q", m.pre.name)
	}
	if m.prompt == nil {
		t.Errorf("no question before cancelling the live run:\n%s", plain(m))
	}
}

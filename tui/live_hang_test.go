package tui

import (
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/session"
)

// A live 2-rank run that hangs (real torch 2.14.1, gloo, testdata/dist-hangs/runs/h01_cond_allreduce.check-2.14-
// threads: rank 0 in all_reduce, rank 1 in barrier), after the user pressed s: the main screen listed the hang
// finding, cut to "all_reduce vs barri…", and said "may be hung" in the stall line, but nowhere where each rank
// waits, which the analysis knew (report said it). During the run the main screen now says what report says,
// from the verdict: "Hung: rank 0 waits in all_reduce at h01_cond_allreduce.py:28 · rank 1 in barrier at …".
func TestLiveRunSaysWhereEachRankWaits(t *testing.T) {
	a := hungLive(t)
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
		// the probe says no rank compiles: the stall line agrees with the "Hung:" line, not "may be hung"
		r.probe.compiling = []report.ProbeCompileState{{Alive: true}}
		if st := m.stallText(); !strings.HasSuffix(st, "nothing compiling: hung") {
			t.Errorf("%dx%d: stall line %q beside the Hung: line", size[0], size[1], st)
		}
	}
}

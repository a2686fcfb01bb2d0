package session

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// The real 2-rank deadlock of testdata/dist-hangs (h01: all_reduce on rank 0 only, barrier on both) run as
// `check -- torchrun …` runs it (no --tee: the dumps carry no rank prefix), its process-group timeout (60 s) longer
// than the tool's (30 s): the tool's stop dumps the ranks' stacks, the probe's start files name each rank's main
// thread, and the stored run reads hung, rank 0 in all_reduce at :28, rank 1 in barrier at :30, with the
// conditional-collective playbook. Needs real PyTorch (TORCHTRIAGE_REALTORCH).
func TestRealtorchConditionalCollectiveHang(t *testing.T) {
	root, runSh := realtorch(t)
	work := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "dist-hangs", "repro", "h01_cond_allreduce.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "h01_cond_allreduce.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := runs.OpenStore(filepath.Join(work, ".torchtriage", "runs"))
	if err != nil {
		t.Fatal(err)
	}
	spec := runs.Spec{
		Argv: []string{runSh, "torchrun", "--nproc-per-node", "2", "--master-port", "29641", "h01_cond_allreduce.py"},
		Dir:  work, Preset: "breaks", Timeout: 30 * time.Second,
		Env: map[string]string{"REALTORCH": root, "HANG_TIMEOUT_S": "60"},
	}
	dir, meta, err := RunToEnd(store, spec, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if meta.State != runs.StateTimedOut {
		t.Fatalf("the run was not stopped by the timeout: %+v", meta)
	}
	l, err := report.Load([]string{dir}, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	probes, _ := ReadProbes(dir)
	a := triage.AnalyzeRun(l.Report, nil, probes, RunFactsOfDir(dir))
	h := a.Hang
	if a.Verdict.State != triage.StateHung || h == nil || h.Cause != report.CauseConditionalCollective {
		b, _ := os.ReadFile(filepath.Join(dir, "stderr.log"))
		t.Fatalf("verdict %s %q, hang %+v\n%s", a.Verdict.State, a.Verdict.Summary, h, b)
	}
	var got []string
	for _, r := range h.Ranks {
		got = append(got, report.Itoa(r.Rank)+" "+r.WaitingIn+" "+r.Site)
	}
	// the ranks are asked for their dumps one at a time (runner.signalEach): no interleaving to leave them unread
	if want := []string{"0 all_reduce h01_cond_allreduce.py:28", "1 barrier h01_cond_allreduce.py:30"}; !slices.Equal(got, want) {
		t.Errorf("ranks %v, want %v", got, want)
	}
}

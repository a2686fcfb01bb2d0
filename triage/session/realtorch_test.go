package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// realtorch returns the realtorch root and its run.sh, or skips: CI has no real PyTorch.
func realtorch(t *testing.T) (root, runSh string) {
	t.Helper()
	root = os.Getenv("TORCHTRIAGE_REALTORCH")
	if root == "" {
		t.Skip("TORCHTRIAGE_REALTORCH not set (a root made by ../shared/realtorch/setup.sh)")
	}
	runSh = os.Getenv("TORCHTRIAGE_REALTORCH_RUN")
	if runSh == "" {
		runSh, _ = filepath.Abs("../../shared/realtorch/run.sh")
	}
	if _, err := os.Stat(runSh); err != nil {
		t.Skipf("no realtorch run.sh at %s (set TORCHTRIAGE_REALTORCH_RUN)", runSh)
	}
	return root, runSh
}

// A real 2-rank torchrun repro under the `breaks` preset: the run dir's report matches the counts of the same
// repro's fixture, and the probe wrote per-rank counters and config.
func TestRealtorchTwoRanksBreaksPreset(t *testing.T) {
	root, runSh := realtorch(t)
	work := t.TempDir()
	src, err := os.ReadFile(filepath.Join(fixtures, "repro", "r05_dist_c10d.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "r05_dist_c10d.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := runs.OpenStore(filepath.Join(work, ".torchtriage", "runs"))
	if err != nil {
		t.Fatal(err)
	}
	spec := runs.Spec{
		Argv: []string{runSh, "torchrun", "--nproc-per-node", "2", "--master-port", "29637", "r05_dist_c10d.py"},
		Dir:  work, Preset: "breaks", Timeout: 8 * time.Minute,
		Env: map[string]string{"REALTORCH": root},
	}
	dir, meta, err := RunToEnd(store, spec, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if meta.ExitCode == nil || *meta.ExitCode != 0 {
		b, _ := os.ReadFile(filepath.Join(dir, "stderr.log"))
		t.Fatalf("repro failed: %+v\n%s", meta, b)
	}
	infos, errs := ReadProbes(dir)
	if len(errs) > 0 || len(infos) != 2 {
		t.Fatalf("probe files: %d infos, errors %v", len(infos), errs)
	}
	// compare with the fixture recorded with the same torch (2.6 or 2.14)
	minor := strings.SplitN(infos[0].Torch, ".", 3)
	if len(minor) < 2 {
		t.Fatalf("probe torch version %q", infos[0].Torch)
	}
	l, err := report.Load([]string{dir}, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var expected map[string]struct {
		report.Counts
		Ranks []int `json:"ranks"`
	}
	data, err := os.ReadFile(filepath.Join(fixtures, "expected.json"))
	if err != nil || json.Unmarshal(data, &expected) != nil {
		t.Fatalf("expected.json: %v", err)
	}
	want, ok := expected["torch-2."+minor[1]+"/r05_dist_c10d.triage.log"]
	if !ok {
		t.Skipf("no fixture recorded with torch %s", infos[0].Torch)
	}
	got := l.Report.Counts
	got.GraphBreakRecords = 0
	if got != want.Counts || !reflect.DeepEqual(l.Report.Ranks, want.Ranks) {
		t.Fatalf("run dir report %+v %v, fixture (torch %s) %+v", got, l.Report.Ranks, infos[0].Torch, want)
	}
	for _, in := range infos {
		if in.Counters["graph_break"] == nil && in.Rank == 0 {
			t.Errorf("rank 0 counted no graph break: %+v", in.Counters)
		}
		if len(in.Config) == 0 || in.Torch == "" {
			t.Errorf("rank %d: no config or torch version: %+v", in.Rank, in)
		}
	}
}

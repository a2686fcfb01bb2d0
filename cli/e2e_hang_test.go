package cli

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A real 2-rank deadlock (testdata/dist-hangs/repro/h01_cond_allreduce.py: an all_reduce on rank 0 only, rank 1 at
// the barrier; gloo, its own timeout made longer than the tool's), under a realtorch root (skips without one, as
// startReal does). The TUI's main screen says where each rank waits during the run, once the user dumps the
// stacks; `check --timeout` exits 3 (did not complete) and says the run hung; `report --format json` of the stored
// run has verdict.state hung, both ranks' waiting_in and site, and the hang finding with its specific playbook.
func TestEndToEndRealDeadlock(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "dist-hangs", "repro", "h01_cond_allreduce.py"))
	if err != nil {
		t.Fatal(err)
	}
	s := startReal(t, "h01_cond_allreduce.py", src, "run --stall 6s --timeout 4m",
		"env HANG_TIMEOUT_S=90 torchrun --nproc-per-node 2 --master-port 29671 h01_cond_allreduce.py")
	s.deadline = 4 * time.Minute
	s.wait("the stall with nothing compiling", "nothing compiling: may be hung")
	s.keys("s")
	s.wait("where each rank waits, on the main screen during the run", "Hung: rank 0 waits in all_reduce at h01_cond_allreduce.py:28",
		"rank 1 in", "h01_cond_allreduce.py:30", "1 hang")
	s.keys("q")

	bin := binary(t)
	root, runSh := os.Getenv("TORCHTRIAGE_REALTORCH"), os.Getenv("TORCHTRIAGE_REALTORCH_RUN")
	dir := s.dir
	check := exec.Command(bin, "check", "--no-compile-errors", "--stall", "6s", "--timeout", "45s", "--store", "hung-store", "--", runSh,
		"env", "HANG_TIMEOUT_S=120", "torchrun", "--nproc-per-node", "2", "--master-port", "29672", "h01_cond_allreduce.py")
	check.Dir = dir
	check.Env = append(os.Environ(), "REALTORCH="+root, "TORCHINDUCTOR_CACHE_DIR="+filepath.Join(dir, ".inductor-cache"))
	out, err := check.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("check: %v, want exit 3:\n%s", err, out)
	}
	if !strings.Contains(string(out), "the run hung: rank 0 waits in all_reduce at h01_cond_allreduce.py:28 · rank 1 in barrier at h01_cond_allreduce.py:30") {
		t.Errorf("check does not say the run hung:\n%s", out)
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "hung-store", "*", "meta.json"))
	if len(runs) != 1 {
		t.Fatalf("store has %v", runs)
	}
	js, err := exec.Command(bin, "report", "--format", "json", filepath.Dir(runs[0])).Output()
	if err != nil {
		t.Fatalf("report: %v", err)
	}
	var doc struct {
		Verdict struct {
			State string `json:"state"`
		} `json:"verdict"`
		Hang struct {
			Ranks []struct {
				Rank      int    `json:"rank"`
				WaitingIn string `json:"waiting_in"`
				Site      string `json:"site"`
			} `json:"ranks"`
		} `json:"hang"`
		Findings []struct {
			Kind     string `json:"kind"`
			Playbook string `json:"playbook"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Verdict.State != "hung" {
		t.Errorf("verdict %q:\n%s", doc.Verdict.State, js)
	}
	places := map[int]string{}
	for _, r := range doc.Hang.Ranks {
		places[r.Rank] = r.WaitingIn + " " + r.Site
	}
	if places[0] != "all_reduce h01_cond_allreduce.py:28" || places[1] != "barrier h01_cond_allreduce.py:30" {
		t.Errorf("ranks %v", places)
	}
	found := false
	for _, f := range doc.Findings {
		found = found || f.Kind == "hang" && f.Playbook == "dist-conditional-collective"
	}
	if !found {
		t.Errorf("no hang finding with dist-conditional-collective:\n%s", js)
	}
}

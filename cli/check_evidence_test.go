package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage/gate"
)

// A launched repro that prints nothing torch-like cannot pass; one that died prints the first failure (the
// rank torchrun names as root cause), not the tail of the launcher's summary.
func TestCheckReproEvidenceAndFirstFailure(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	code, _, errs := checkCmd(t, "--store", store, "--no-probe", "--max-graph-breaks", "0", "--", "sh", "-c", "echo hello >&2")
	// a run the tool launched is no log someone picked: its words say the run printed nothing (they asked "is this
	// the right log, and was its stderr captured?", of the run's own captured output)
	if code != gate.ExitNoEvidence || !strings.Contains(errs, "no evidence: the run printed no torch output at all") ||
		strings.Contains(errs, "right log") {
		t.Fatalf("silent repro: code %d\n%s", code, errs)
	}
	nccl, _ := filepath.Abs(fx("torch-2.11-cuda/g09a_nccl_same_gpu.triage.log"))
	code, _, errs = checkCmd(t, "--store", store, "--no-probe", "--no-compile-errors", "--", "sh", "-c", "cat "+nccl+" >&2; exit 1")
	// both ranks died of the error --no-compile-errors is about: the rule fails (exit 1, TestCheckRuleBrokenByARunThatDied)
	if code != exitFail || !strings.Contains(errs, "first failure: rank 1 failed first (torchrun's root cause): torch.distributed.DistBackendError: Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 60") {
		t.Fatalf("NCCL repro: code %d\n%s", code, errs)
	}
}

// A launched run whose output shows one rank is no evidence for --ranks-agree either; the tool captured every
// process's output itself, so the line does not ask whether the logs were captured.
func TestCheckRanksAgreeOnALaunchedRunOfOneRank(t *testing.T) {
	one := rank0Log(t)
	store := filepath.Join(t.TempDir(), "runs")
	code, out, errs := checkCmd(t, "--store", store, "--no-probe", "--ranks-agree", "--", "sh", "-c", "cat "+one+" >&2")
	if code != gate.ExitNoEvidence || !strings.Contains(errs, "--ranks-agree compares ranks, and the run shows only rank 0: nothing to compare") ||
		strings.Contains(errs, "captured") || strings.Contains(out, "PASS") {
		t.Errorf("code %d\nstdout %s\nstderr %s", code, out, errs)
	}
}

// rank0Log is the real 2-rank DDP log with rank 1's lines left out, as a log of one rank's stderr is.
func rank0Log(t *testing.T) string {
	return testlogs.LinesWithout(t, fx("torch-2.14/ddp_2ranks.ddp.log"), "[rank1]")
}

// The machine formats carry what exit 3 means (triage/gate's tests have the rest): JSON of a launched run that did
// not complete has passed false and did_not_complete, where stdout was empty before.
func TestCheckMachineFormatsSayIncomplete(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	code, out, _ := checkCmd(t, "--store", store, "--no-probe", "--max-graph-breaks", "0", "--format", "json", "--", "sh", "-c", "exit 3")
	res := struct {
		Passed         bool   `json:"passed"`
		NoEvidence     string `json:"no_evidence"`
		DidNotComplete string `json:"did_not_complete"`
	}{}
	if err := json.Unmarshal([]byte(out), &res); code != gate.ExitDidNotComplete || err != nil || res.Passed || res.DidNotComplete != "exited with code 3" {
		t.Errorf("json, did not complete: code %d %v %+v\n%s", code, err, res, out)
	}
}

// check's exit statuses of inputs that show nothing, or a run that did not complete (the policy is triage/gate's,
// and tested there): 4 with one line, 0 with --allow-no-evidence, 3, and 2 with the pointer to --help for a
// baseline that cannot be written.
func TestCheckExitStatuses(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.log")
	os.WriteFile(empty, nil, 0o644)
	cases := []struct {
		args []string
		code int
		want string // stderr, from its start
	}{
		{[]string{empty, "--max-graph-breaks", "0"}, gate.ExitNoEvidence, "torchtriage check: no evidence: the input holds no torch output at all"},
		{[]string{empty, "--max-graph-breaks", "0", "--allow-no-evidence"}, 0, "torchtriage check: passing without evidence (--allow-no-evidence): "},
		{[]string{"../testdata/gpu-e2e/0005-breaks", "--max-graph-breaks", "0"}, gate.ExitDidNotComplete, "torchtriage check: the repro did not run to completion: exited with code 1; run dir ../testdata/gpu-e2e/0005-breaks\n"},
		{[]string{fx("torch-2.14/gb_recompile.triage.log"), "--write-baseline", t.TempDir()}, exitUsage, "torchtriage check: "},
	}
	for _, c := range cases {
		code, out, errs := runCheck(t, c.args...)
		if code != c.code || !strings.HasPrefix(errs, c.want) {
			t.Errorf("check %v: code %d (want %d)\nstdout %s\nstderr %s", c.args, code, c.code, out, errs)
		}
		if code == exitUsage && !strings.HasSuffix(errs, "; see torchtriage check --help\n") {
			t.Errorf("check %v: an unwritable baseline is a usage error: %q", c.args, errs)
		}
	}
}

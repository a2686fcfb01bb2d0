package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
)

// A run that did not complete can still break a rule with evidence: both ranks of the real g09a run (H100, torch
// 2.11) died of DistBackendError, which is what --no-compile-errors is about ("a process that died of an uncaught
// exception"). The gate fails (exit 1) naming the runtime errors, and says the run did not complete, in text and
// JSON; stderr keeps the run dir and the first failure. Before, check printed no FAIL line and exited 3.
func TestCheckRuleBrokenByARunThatDied(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	nccl, _ := filepath.Abs(fx("torch-2.11-cuda/g09a_nccl_same_gpu.triage.log"))
	repro := []string{"--", "sh", "-c", "cat " + nccl + " >&2; exit 1"}
	code, out, errs := checkCmd(t, append([]string{"--store", store, "--no-probe", "--no-compile-errors"}, repro...)...)
	if code != exitFail || !strings.Contains(out, "FAIL [--no-compile-errors] 2 runtime errors: DistBackendError: Duplicate GPU detected") ||
		!strings.Contains(out, "FAIL (1 failure) · --no-compile-errors · counted: ") ||
		!strings.Contains(out, "· the run did not complete: exited with code 1") {
		t.Errorf("text: code %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if !strings.Contains(errs, "did not run to completion: exited with code 1") || !strings.Contains(errs, "first failure: rank 1 failed first") {
		t.Errorf("stderr lost the run dir note or the first failure:\n%s", errs)
	}
	code, out, _ = checkCmd(t, append([]string{"--store", store, "--no-probe", "--no-compile-errors", "--format", "json"}, repro...)...)
	var res struct {
		gate.Result
		Counts map[string]int `json:"counts"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != exitFail || res.Passed || len(res.Failures) != 1 ||
		res.Failures[0].Rule != "--no-compile-errors" || res.DidNotComplete != "exited with code 1" || res.Counts["runtime_errors"] != 2 {
		t.Errorf("json: code %d %v\n%s", code, err, out)
	}
	code, out, _ = checkCmd(t, append([]string{"--store", store, "--no-probe", "--no-compile-errors", "--format", "junit"}, repro...)...)
	if code != exitFail || !strings.Contains(out, `<testcase name="run completed" classname="torchtriage.check">`) ||
		!strings.Contains(out, `failures="2"`) || !strings.Contains(out, "the run did not complete: exited with code 1") {
		t.Errorf("junit: code %d\n%s", code, out)
	}
	if _, help, _ := checkCmd(t, "--help"); !strings.Contains(strings.Join(strings.Fields(help), " "),
		"A rule the run broke before it stopped still fails (exit 1), and the result says the run did not complete") {
		t.Errorf("check --help does not say what a dead run that broke a rule gives:\n%s", help)
	}
	// a rule the run did not break proves nothing about a run that died: did not complete, as before
	code, out, errs = checkCmd(t, append([]string{"--store", store, "--no-probe", "--max-recompiles", "0"}, repro...)...)
	if code != gate.ExitDidNotComplete || strings.Contains(out, "PASS") || !strings.Contains(errs, "did not run to completion") {
		t.Errorf("passing rule on a dead run: code %d\nstdout %s\nstderr %s", code, out, errs)
	}
}

// A launched run that died of a compile error (fullgraph) cannot pass a break rule (before: PASS with "0 graph
// breaks, 1 compile errors"); triage/gate's TestRunDeadRunNeverPasses has the run directory and the log alone.
func TestCheckDeadRunNeverPasses(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	full, _ := filepath.Abs(fx("torch-2.14/r07_fullgraph.triage.log"))
	code, out, errs := checkCmd(t, "--store", store, "--no-probe", "--max-graph-breaks", "5", "--", "sh", "-c", "cat "+full+" >&2; exit 1")
	if code != gate.ExitDidNotComplete || strings.Contains(out, "PASS") {
		t.Errorf("fullgraph compile error, --max-graph-breaks 5: code %d\n%s%s", code, out, errs)
	}
}

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
	if code != exitDidNotComplete || strings.Contains(out, "PASS") || !strings.Contains(errs, "did not run to completion") {
		t.Errorf("passing rule on a dead run: code %d\nstdout %s\nstderr %s", code, out, errs)
	}
}

// The same rule on the same stored run gives the same answer whether check launched it or reads its run dir: the
// real g09a run dir (exit 1, both ranks dead) fails --no-compile-errors and cannot pass --max-graph-breaks 0 (before:
// PASS, exit 0). A run that died of a compile error (fullgraph) cannot pass a break rule either (before: PASS with
// "0 graph breaks, 1 compile errors").
func TestCheckDeadRunNeverPasses(t *testing.T) {
	dir := "../testdata/gpu-e2e/0005-breaks"
	code, out, errs := runCheck(t, dir, "--no-compile-errors")
	if code != exitFail || !strings.Contains(out, "2 runtime errors") || !strings.Contains(out, "the run did not complete: exited with code 1") {
		t.Errorf("run dir, --no-compile-errors: code %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCheck(t, dir, "--max-graph-breaks", "0")
	if code != exitDidNotComplete || strings.Contains(out, "PASS") || !strings.Contains(errs, "did not run to completion: exited with code 1") ||
		!strings.Contains(errs, "first failure: rank 1 failed first") {
		t.Errorf("run dir, --max-graph-breaks 0: code %d\n%s%s", code, out, errs)
	}
	store := filepath.Join(t.TempDir(), "runs")
	full, _ := filepath.Abs(fx("torch-2.14/r07_fullgraph.triage.log"))
	code, out, errs = checkCmd(t, "--store", store, "--no-probe", "--max-graph-breaks", "5", "--", "sh", "-c", "cat "+full+" >&2; exit 1")
	if code != exitDidNotComplete || strings.Contains(out, "PASS") {
		t.Errorf("fullgraph compile error, --max-graph-breaks 5: code %d\n%s%s", code, out, errs)
	}
	// a log alone: the processes that died of an error did not complete either
	code, out, errs = runCheck(t, fx("torch-2.14/r07_fullgraph.triage.log"), "--no-compile-errors")
	if code != exitFail || !strings.Contains(out, "FAIL [--no-compile-errors] 1 compile error: ") ||
		!strings.Contains(out, "the run did not complete: 1 process died of a compile error") {
		t.Errorf("fullgraph log: code %d\n%s%s", code, out, errs)
	}
}

// A run torchtriage stopped (recorded: a torchrun job of 2 ranks at its 120 s timeout, rank 0 waiting in an
// all_reduce rank 1 never makes, rank 1 asleep) says where each rank was when stopped, from the analysis, before
// any raw tail; torchrun's traceback in that tail ("SignalException: Process 6665 got signal: 2") is labelled as
// its reaction to torchtriage's SIGINT. Before, the tail alone read like the launcher's failure.
func TestCheckStoppedRunSaysWhereEachRankWas(t *testing.T) {
	dir := "../testdata/recorded/stopped-dist-hang/runs/0002-breaks"
	code, _, errs := runCheck(t, dir, "--no-compile-errors")
	if code != exitDidNotComplete {
		t.Fatalf("code %d\n%s", code, errs)
	}
	where := strings.Index(errs, "where each rank was when torchtriage stopped the run:")
	r0 := strings.Index(errs, "rank 0: hang_extra.py:13")
	r1 := strings.Index(errs, "rank 1: hang_extra.py:16")
	tail := strings.Index(errs, "SignalException: Process 6665 got signal: 2")
	label := strings.Index(errs, "torchrun's reaction to torchtriage's SIGINT")
	if where < 0 || r0 < where || r1 < where || label < 0 || (tail >= 0 && (tail < r1 || tail < label)) {
		t.Errorf("stderr:\n%s", errs)
	}
}

// Ranks stopped inside `import torch` whose tracebacks carry only torchrun's tee prefix: their place is said of
// processes without a rank prefix, never given to a rank.
func TestCheckStoppedInImportSaysWhereTheProcessesWere(t *testing.T) {
	_, _, errs := runCheck(t, "../testdata/recorded/stopped-in-import/runs/0001-breaks", "--no-compile-errors")
	if !strings.Contains(errs, "where each process was when torchtriage stopped the run:\n  2 processes without a rank prefix: hang_extra.py:1 (KeyboardInterrupt)\n") ||
		strings.Contains(errs, "rank 0:") {
		t.Errorf("stderr:\n%s", errs)
	}
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A gate that passes on inputs which cannot show what its rules ask about is a lie: exit 4 with one line
// saying what is missing, unless --allow-no-evidence. A failure found stands whatever else is missing.
func TestCheckNoEvidence(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.log")
	plain := filepath.Join(t.TempDir(), "plain.log")
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(plain, []byte("epoch 1 loss 0.5\nepoch 2 loss 0.4\n"), 0o644)
	gpu := func(n string) string { return fx("torch-2.11-cuda/" + n) }
	one := rank0Log(t)
	cases := []struct {
		args []string
		code int
		want string // in stdout+stderr
	}{
		{[]string{empty, "--max-graph-breaks", "0"}, exitNoEvidence, "no evidence: the input holds no torch output at all: nothing shows torch ran (is this the right log"},
		{[]string{plain, "--max-graph-breaks", "0", "--no-compile-errors"}, exitNoEvidence, "no torch output"},
		{[]string{empty, "--max-graph-breaks", "0", "--allow-no-evidence"}, 0, "passing without evidence (--allow-no-evidence): the input holds no torch output"},
		// torch ran (a CUDA-graph warning) but graph_breaks/recompiles were off
		{[]string{gpu("g16_cg_no_partition.no_torch_logs.log"), "--max-recompiles", "0"}, exitNoEvidence, "no recompiles records"},
		// the same log has skips: --no-cudagraph-skips fails on them although partitions were not logged
		{[]string{gpu("g16_cg_no_partition.no_torch_logs.log"), "--no-cudagraph-skips"}, 1, "FAIL (3 failures) · --no-cudagraph-skips"},
		// partitions print only with TORCH_LOGS cudagraphs: a clean log without it cannot pass the rule
		{[]string{gpu("g07_gb_recompile_mix.triage.log"), "--no-cudagraph-skips"}, exitNoEvidence, "--preset cudagraphs"},
		{[]string{gpu("g01_cg_cpu_input.perf.log"), "--no-cudagraph-skips"}, 1, "non-cudagraphable partition: CUDA graphs leave out DeviceCopy ops"},
		{[]string{gpu("g02_cg_mutated_input.triage.log"), "--no-cudagraph-skips"}, 1, "playbook cg-mutated-inputs"},
		// 4 recordings, 3 of them re-recordings (10 "Re-recording" lines are failed checks, 1+2+3+4)
		{[]string{gpu("g13b_cg_rerecord_limit_noinline.perf.log"), "--max-cudagraph-rerecords", "2"}, 1, "3 re-recordings > 2: CUDA graph of partition_0 recorded again 3 times"},
		{[]string{gpu("g13b_cg_rerecord_limit_noinline.perf.log"), "--max-cudagraph-rerecords", "3"}, 0, "PASS · --max-cudagraph-rerecords=3"},
		{[]string{gpu("g13b_cg_rerecord_limit_noinline.perf.log"), "--max-cudagraph-rerecords", "10"}, 0, "PASS · --max-cudagraph-rerecords=10"},
		// the same run under graph_breaks,recompiles: its W-level skip line prints under any TORCH_LOGS and is no
		// sign that cudagraphs (re-recording lines) was on
		{[]string{gpu("g13b_cg_rerecord_limit_noinline.triage.log"), "--max-cudagraph-rerecords", "3"}, exitNoEvidence, "no cudagraphs records"},
		{[]string{gpu("g13b_cg_rerecord_limit_noinline.perf.log"), "--max-cudagraph-rerecords", "-1"}, exitUsage, "must be 0 or more"},
		{[]string{fx("torch-2.6/r05_dist_c10d.triage.log"), "--max-compile-time", "60"}, exitNoEvidence, "no compile time in the inputs"},
		// ranks that are not there cannot agree: one process, or one rank of a job, is no evidence for the rule
		{[]string{fx("torch-2.14/gb_recompile.triage.log"), "--ranks-agree"}, exitNoEvidence, "--ranks-agree compares ranks, and the input shows one process"},
		{[]string{one, "--ranks-agree"}, exitNoEvidence, "--ranks-agree compares ranks, and the input shows only rank 0"},
		{[]string{one, "--ranks-agree", "--allow-no-evidence"}, 0, "passing without evidence (--allow-no-evidence)"},
		{[]string{fx("torch-2.14/ddp_2ranks.ddp.log"), "--ranks-agree"}, 0, "PASS · --ranks-agree"},
		// a rule with evidence fails whatever the other lacks
		{[]string{fx("torch-2.14/gb_recompile.triage.log"), "--ranks-agree", "--max-graph-breaks", "0"}, 1, "FAIL (3 failures)"},
	}
	for _, c := range cases {
		code, out, errs := runCheck(t, c.args...)
		if code != c.code || !strings.Contains(out+errs, c.want) {
			t.Errorf("check %v: code %d (want %d)\nstdout %s\nstderr %s\nwant %q", c.args, code, c.code, out, errs, c.want)
		}
		if code == exitNoEvidence && (strings.Contains(out, "PASS") || strings.Count(strings.TrimSpace(errs), "\n") != 0) {
			t.Errorf("check %v: exit 4 must print one line and no PASS: %q %q", c.args, out, errs)
		}
	}
}

// A launched repro that prints nothing torch-like cannot pass; one that died prints the first failure (the
// rank torchrun names as root cause), not the tail of the launcher's summary.
func TestCheckReproEvidenceAndFirstFailure(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	code, _, errs := checkCmd(t, "--store", store, "--no-probe", "--max-graph-breaks", "0", "--", "sh", "-c", "echo hello >&2")
	// a run the tool launched is no log someone picked: its words say the run printed nothing (they asked "is this
	// the right log, and was its stderr captured?", of the run's own captured output)
	if code != exitNoEvidence || !strings.Contains(errs, "no evidence: the run printed no torch output at all") ||
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

// A baseline records what a run logged: from a log whose graph breaks and recompiles were not logged it would hold
// none of them, and every break of a later run would fail as "new". No baseline is written (exit 4); the counted
// line says "not logged" rather than 0 of what could not print.
func TestWriteBaselineNeedsTheLogging(t *testing.T) {
	perf := fx("torch-2.14/r06_dist_funcol.perf.log")
	base := filepath.Join(t.TempDir(), "base.json")
	code, out, errs := runCheck(t, perf, "--write-baseline", base)
	if code != exitNoEvidence || !strings.Contains(errs, "no baseline written: ") || !strings.Contains(errs, "graph_breaks/recompiles") {
		t.Errorf("code %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if _, err := os.Stat(base); err == nil {
		t.Error("a baseline was written from a log without graph breaks and recompiles logged")
	}
	code, out, _ = runCheck(t, perf, "--no-limit-hits")
	if code != 0 || !strings.Contains(out, "counted: graph breaks unknown, recompiles unknown, 0 limit hits") {
		t.Errorf("--no-limit-hits: code %d, stdout %s", code, out)
	}
}

// A launched run whose output shows one rank is no evidence for --ranks-agree either; the tool captured every
// process's output itself, so the line does not ask whether the logs were captured.
func TestCheckRanksAgreeOnALaunchedRunOfOneRank(t *testing.T) {
	one := rank0Log(t)
	store := filepath.Join(t.TempDir(), "runs")
	code, out, errs := checkCmd(t, "--store", store, "--no-probe", "--ranks-agree", "--", "sh", "-c", "cat "+one+" >&2")
	if code != exitNoEvidence || !strings.Contains(errs, "--ranks-agree compares ranks, and the run shows only rank 0: nothing to compare") ||
		strings.Contains(errs, "captured") || strings.Contains(out, "PASS") {
		t.Errorf("code %d\nstdout %s\nstderr %s", code, out, errs)
	}
}

// rank0Log is the real 2-rank DDP log with rank 1's lines left out, as a log of one rank's stderr is.
func rank0Log(t *testing.T) string {
	t.Helper()
	ddp, err := os.ReadFile(fx("torch-2.14/ddp_2ranks.ddp.log"))
	if err != nil {
		t.Fatal(err)
	}
	var rank0 []string
	for _, l := range strings.SplitAfter(string(ddp), "\n") {
		if !strings.HasPrefix(l, "[rank1]") {
			rank0 = append(rank0, l)
		}
	}
	one := filepath.Join(t.TempDir(), "rank0.log")
	if err := os.WriteFile(one, []byte(strings.Join(rank0, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return one
}

// A baseline that holds compile time per frame cannot be checked against inputs without compile time: the gate
// passed on the findings alone ("PASS · --baseline"). It is no evidence (exit 4), as --max-compile-time is; a
// failure found still fails.
func TestCheckBaselineCompileTimeNeedsCompileTime(t *testing.T) {
	base := filepath.Join(t.TempDir(), "warm.json")
	if code, _, errs := runCheck(t, "../testdata/compile/torch-2.14/c01_mlp.warm.trace", "--write-baseline", base); code != 0 {
		t.Fatalf("write: %d %s", code, errs)
	}
	code, out, errs := runCheck(t, fx("torch-2.14/r11_transformer.dynamo_debug.log"), "--baseline", base)
	if code != exitNoEvidence || strings.Contains(out, "PASS") || !strings.Contains(errs, "the baseline holds compile time per frame, and the input has none") {
		t.Errorf("code %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if code, _, _ := runCheck(t, fx("torch-2.14/gb_recompile.triage.log"), "--baseline", base); code != exitFail {
		t.Errorf("new breaks against the baseline: code %d, want 1", code)
	}
	if code, _, errs := runCheck(t, "../testdata/compile/torch-2.14/c01_mlp.warm2.trace", "--baseline", base); code != 0 {
		t.Errorf("a warm run against its warm baseline: code %d %s", code, errs)
	}
}

// The machine formats carry what exit 3 and 4 mean: JSON has passed false and no_evidence (or did_not_complete),
// GitHub an error annotation, JUnit a failed case; stdout was empty, so a CI step that reads the result had none.
// Text keeps its one line on stderr.
func TestCheckMachineFormatsSayNoEvidenceAndIncomplete(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.log")
	os.WriteFile(empty, nil, 0o644)
	code, out, _ := runCheck(t, empty, "--max-graph-breaks", "0", "--format", "json")
	var res struct {
		Passed         bool   `json:"passed"`
		NoEvidence     string `json:"no_evidence"`
		DidNotComplete string `json:"did_not_complete"`
	}
	if err := json.Unmarshal([]byte(out), &res); code != exitNoEvidence || err != nil || res.Passed || !strings.Contains(res.NoEvidence, "no torch output") {
		t.Errorf("json: code %d %v %+v\n%s", code, err, res, out)
	}
	code, out, _ = runCheck(t, empty, "--max-graph-breaks", "0", "--format", "json", "--allow-no-evidence")
	res.Passed, res.NoEvidence = false, ""
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || !res.Passed || !strings.Contains(res.NoEvidence, "no torch output") {
		t.Errorf("json, --allow-no-evidence: code %d %v %+v", code, err, res)
	}
	code, out, _ = runCheck(t, empty, "--max-graph-breaks", "0", "--format", "github")
	if code != exitNoEvidence || !strings.HasPrefix(out, "::error title=torchtriage no evidence::the input holds no torch output") || strings.Contains(out, "PASS") {
		t.Errorf("github: code %d\n%s", code, out)
	}
	code, out, _ = runCheck(t, empty, "--max-graph-breaks", "0", "--format", "junit")
	if code != exitNoEvidence || !strings.Contains(out, `type="no-evidence"`) || !strings.Contains(out, `failures="1"`) {
		t.Errorf("junit: code %d\n%s", code, out)
	}
	code, out, errs := runCheck(t, empty, "--max-graph-breaks", "0")
	if code != exitNoEvidence || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("text: code %d\nstdout %q\nstderr %q", code, out, errs)
	}
	store := filepath.Join(t.TempDir(), "runs")
	code, out, _ = checkCmd(t, "--store", store, "--no-probe", "--max-graph-breaks", "0", "--format", "json", "--", "sh", "-c", "exit 3")
	res = struct {
		Passed         bool   `json:"passed"`
		NoEvidence     string `json:"no_evidence"`
		DidNotComplete string `json:"did_not_complete"`
	}{}
	if err := json.Unmarshal([]byte(out), &res); code != exitDidNotComplete || err != nil || res.Passed || res.DidNotComplete != "exited with code 3" {
		t.Errorf("json, did not complete: code %d %v %+v\n%s", code, err, res, out)
	}
}

// Writing a baseline says what it holds: its findings and the frames whose compile time it keeps ("0 items" of a
// baseline holding a frame's compile time read as an empty one).
func TestWriteBaselineSaysWhatItHolds(t *testing.T) {
	base := filepath.Join(t.TempDir(), "warm.json")
	code, _, errs := runCheck(t, "../testdata/compile/torch-2.14/c01_mlp.warm.trace", "--write-baseline", base)
	if code != 0 || !strings.Contains(errs, "wrote baseline "+base+" (0 items, compile time of 1 frame)") {
		t.Errorf("code %d, stderr %q", code, errs)
	}
	code, _, errs = runCheck(t, fx("torch-2.14/gb_recompile.triage.log"), "--write-baseline", base)
	if code != 0 || !strings.Contains(errs, "wrote baseline "+base+" (") || strings.Contains(errs, "compile time") {
		t.Errorf("code %d, stderr %q", code, errs)
	}
}

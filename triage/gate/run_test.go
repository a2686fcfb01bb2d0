package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/session"
)

func fx(t *testing.T, name string) string { return testlogs.Path(t, "fixtures", name) }

// input is what check gates of paths: their analysis with the probe files of the run directories among them and
// the run facts of one run directory, which is then the run's Dir, as `torchtriage check PATH…` reads them.
func input(t *testing.T, paths ...string) Input {
	t.Helper()
	l, err := report.Load(paths, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := playbooks.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var probes []report.ProcessInfo
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			infos, _ := session.ReadProbes(p)
			probes = append(probes, infos...)
		}
	}
	var run *report.RunFacts
	in := Input{}
	if len(paths) == 1 {
		if run = session.RunFactsOfDir(paths[0]); run != nil {
			in.Dir = paths[0]
		}
	}
	in.Analyze = func() *triage.Analysis { return triage.AnalyzeRun(l.Report, set, probes, run) }
	return in
}

// gated runs the gate on in and returns its outcome, stdout and stderr.
func gated(t *testing.T, in Input, o RunOptions) (Outcome, string, string, error) {
	t.Helper()
	if o.Format == "" {
		o.Format = "text"
	}
	var out, errb bytes.Buffer
	res, err := Run(&out, &errb, in, o)
	return res, out.String(), errb.String(), err
}

// rules are the rules with no limit on breaks and recompiles, changed by set.
func rules(set func(o *Options)) Options {
	o := Options{MaxGraphBreaks: -1, MaxRecompiles: -1}
	if set != nil {
		set(&o)
	}
	return o
}

// A gate that passes on inputs which cannot show what its rules ask about is a lie: ExitNoEvidence with one line
// saying what is missing, unless AllowNoEvidence. A failure found stands whatever else is missing.
func TestRunNoEvidence(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.log")
	plain := filepath.Join(t.TempDir(), "plain.log")
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(plain, []byte("epoch 1 loss 0.5\nepoch 2 loss 0.4\n"), 0o644)
	gpu := func(n string) string { return fx(t, "torch-2.11-cuda/"+n) }
	one := rank0Log(t)
	n := func(n int) *int { return &n }
	breaks0 := func(o *Options) { o.MaxGraphBreaks = 0 }
	skips := func(o *Options) { o.NoCudagraphSkips = true }
	rerecords := func(k int) func(o *Options) { return func(o *Options) { o.MaxCudagraphRerecords = n(k) } }
	agree := func(o *Options) { o.RanksAgree = true }
	cases := []struct {
		in    string
		rules func(o *Options)
		allow bool
		exit  int
		want  string // in stdout+stderr
	}{
		{empty, breaks0, false, ExitNoEvidence, "no evidence: the input holds no torch output at all: nothing shows torch ran (is this the right log"},
		{plain, func(o *Options) { o.MaxGraphBreaks, o.NoCompileErrors = 0, true }, false, ExitNoEvidence, "no torch output"},
		{empty, breaks0, true, ExitPassed, "passing without evidence (--allow-no-evidence): the input holds no torch output"},
		// torch ran (a CUDA-graph warning) but graph_breaks/recompiles were off
		{gpu("g16_cg_no_partition.no_torch_logs.log"), func(o *Options) { o.MaxRecompiles = 0 }, false, ExitNoEvidence, "no recompiles records"},
		// the same log has skips: NoCudagraphSkips fails on them although partitions were not logged
		{gpu("g16_cg_no_partition.no_torch_logs.log"), skips, false, ExitFailed, "FAIL (3 failures) · --no-cudagraph-skips"},
		// partitions print only with TORCH_LOGS cudagraphs: a clean log without it cannot pass the rule
		{gpu("g07_gb_recompile_mix.triage.log"), skips, false, ExitNoEvidence, "--preset cudagraphs"},
		{gpu("g01_cg_cpu_input.perf.log"), skips, false, ExitFailed, "non-cudagraphable partition: CUDA graphs leave out DeviceCopy ops"},
		{gpu("g02_cg_mutated_input.triage.log"), skips, false, ExitFailed, "playbook cg-mutated-inputs"},
		// 4 recordings, 3 of them re-recordings (10 "Re-recording" lines are failed checks, 1+2+3+4)
		{gpu("g13b_cg_rerecord_limit_noinline.perf.log"), rerecords(2), false, ExitFailed, "3 re-recordings > 2: CUDA graph of partition_0 recorded again 3 times"},
		{gpu("g13b_cg_rerecord_limit_noinline.perf.log"), rerecords(3), false, ExitPassed, "PASS · --max-cudagraph-rerecords=3"},
		{gpu("g13b_cg_rerecord_limit_noinline.perf.log"), rerecords(10), false, ExitPassed, "PASS · --max-cudagraph-rerecords=10"},
		// the same run under graph_breaks,recompiles: its W-level skip line prints under any TORCH_LOGS and is no
		// sign that cudagraphs (re-recording lines) was on
		{gpu("g13b_cg_rerecord_limit_noinline.triage.log"), rerecords(3), false, ExitNoEvidence, "no cudagraphs records"},
		{fx(t, "torch-2.6/r05_dist_c10d.triage.log"), func(o *Options) { o.MaxCompileTime = time.Minute }, false, ExitNoEvidence, "no compile time in the inputs"},
		// a serving log states its compile time itself (vLLM's "torch.compile took … in total"): judged, source named
		{fx(t, "synthetic/synthetic_vllm_serving.log"), func(o *Options) { o.MaxCompileTime = time.Minute }, false, ExitFailed, "compile time 264.6 s > 60.0 s (vLLM's own figure"},
		{fx(t, "synthetic/synthetic_vllm_serving.log"), func(o *Options) { o.MaxCompileTime = 5 * time.Minute }, false, ExitPassed, "compile time 264.6 s (vLLM's own figure"},
		// but no skew: one total for all processes says nothing of ranks
		{fx(t, "synthetic/synthetic_vllm_serving.log"), func(o *Options) { o.MaxCompileSkew = time.Minute }, false, ExitNoEvidence, "no compile time in the inputs"},
		// SGLang's capture is no compile time
		{fx(t, "synthetic/synthetic_sglang_capture.log"), func(o *Options) { o.MaxCompileTime = time.Minute }, false, ExitNoEvidence, "no compile time in the inputs"},
		// ranks that are not there cannot agree: one process, or one rank of a job, is no evidence for the rule
		{fx(t, "torch-2.14/gb_recompile.triage.log"), agree, false, ExitNoEvidence, "--ranks-agree compares ranks, and the input shows one process"},
		{one, agree, false, ExitNoEvidence, "--ranks-agree compares ranks, and the input shows only rank 0"},
		{one, agree, true, ExitPassed, "passing without evidence (--allow-no-evidence)"},
		{fx(t, "torch-2.14/ddp_2ranks.ddp.log"), agree, false, ExitPassed, "PASS · --ranks-agree"},
		// a rule with evidence fails whatever the other lacks
		{fx(t, "torch-2.14/gb_recompile.triage.log"), func(o *Options) { o.RanksAgree, o.MaxGraphBreaks = true, 0 }, false, ExitFailed, "FAIL (3 failures)"},
	}
	for _, c := range cases {
		res, out, errs, err := gated(t, input(t, c.in), RunOptions{Rules: rules(c.rules), AllowNoEvidence: c.allow})
		if err != nil || res.Exit != c.exit || !strings.Contains(out+errs, c.want) {
			t.Errorf("%s %+v: exit %d (want %d) %v\nstdout %s\nstderr %s\nwant %q", c.in, rules(c.rules), res.Exit, c.exit, err, out, errs, c.want)
		}
		if res.Exit == ExitNoEvidence && (res.Result.Passed || strings.Contains(out, "PASS") || strings.Count(strings.TrimSpace(errs), "\n") != 0) {
			t.Errorf("%s: exit 4 must print one line and no PASS: %q %q", c.in, out, errs)
		}
	}
}

// rank0Log is the real 2-rank DDP log with rank 1's lines left out, as a log of one rank's stderr is.
func rank0Log(t *testing.T) string {
	return testlogs.LinesWithout(t, fx(t, "torch-2.14/ddp_2ranks.ddp.log"), "[rank1]")
}

// The machine formats carry what exit 4 means: JSON has passed false and no_evidence, GitHub an error annotation,
// JUnit a failed case; text prints nothing on stdout and one line on stderr.
func TestRunMachineFormatsSayNoEvidence(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.log")
	os.WriteFile(empty, nil, 0o644)
	gate := func(format string, allow bool) (Outcome, string, string) {
		res, out, errs, err := gated(t, input(t, empty), RunOptions{Rules: rules(func(o *Options) { o.MaxGraphBreaks = 0 }),
			Format: format, AllowNoEvidence: allow})
		if err != nil {
			t.Fatal(err)
		}
		return res, out, errs
	}
	var res struct {
		Passed     bool   `json:"passed"`
		NoEvidence string `json:"no_evidence"`
	}
	o, out, _ := gate("json", false)
	if err := json.Unmarshal([]byte(out), &res); o.Exit != ExitNoEvidence || err != nil || res.Passed || !strings.Contains(res.NoEvidence, "no torch output") {
		t.Errorf("json: exit %d %v %+v\n%s", o.Exit, err, res, out)
	}
	o, out, _ = gate("json", true)
	res.Passed, res.NoEvidence = false, ""
	if err := json.Unmarshal([]byte(out), &res); o.Exit != ExitPassed || err != nil || !res.Passed || !strings.Contains(res.NoEvidence, "no torch output") {
		t.Errorf("json, AllowNoEvidence: exit %d %v %+v", o.Exit, err, res)
	}
	o, out, _ = gate("github", false)
	if o.Exit != ExitNoEvidence || !strings.HasPrefix(out, "::error title=torchtriage no evidence::the input holds no torch output") || strings.Contains(out, "PASS") {
		t.Errorf("github: exit %d\n%s", o.Exit, out)
	}
	o, out, _ = gate("junit", false)
	if o.Exit != ExitNoEvidence || !strings.Contains(out, `type="no-evidence"`) || !strings.Contains(out, `failures="1"`) {
		t.Errorf("junit: exit %d\n%s", o.Exit, out)
	}
	o, out, errs := gate("text", false)
	if o.Exit != ExitNoEvidence || out != "" || errs != "torchtriage check: no evidence: "+o.Result.NoEvidence+"\n" {
		t.Errorf("text: exit %d\nstdout %q\nstderr %q", o.Exit, out, errs)
	}
}

// A baseline records what a run logged: from a log whose graph breaks and recompiles were not logged it would hold
// none of them, and every break of a later run would fail as "new". No baseline is written (ExitNoEvidence); the
// counted line says "unknown" rather than 0 of what could not print.
func TestRunWriteBaselineNeedsTheLogging(t *testing.T) {
	perf := fx(t, "torch-2.14/r06_dist_funcol.perf.log")
	base := filepath.Join(t.TempDir(), "base.json")
	res, out, errs, err := gated(t, input(t, perf), RunOptions{Rules: rules(nil), WriteBaseline: base})
	if err != nil || res.Exit != ExitNoEvidence || !strings.HasPrefix(errs, "torchtriage check: no baseline written: ") ||
		!strings.Contains(errs, "graph_breaks/recompiles") || !strings.HasPrefix(res.Result.NoEvidence, "no baseline written: ") {
		t.Errorf("exit %d %v\nstdout %s\nstderr %s", res.Exit, err, out, errs)
	}
	if _, err := os.Stat(base); err == nil {
		t.Error("a baseline was written from a log without graph breaks and recompiles logged")
	}
	// the same log passes --no-limit-hits, its counted line saying "unknown" rather than 0 of what could not print
	res, out, _, _ = gated(t, input(t, perf), RunOptions{Rules: rules(func(o *Options) { o.NoLimitHits = true })})
	if res.Exit != ExitPassed || !strings.Contains(out, "counted: graph breaks unknown, recompiles unknown, 0 limit hits") {
		t.Errorf("--no-limit-hits: exit %d, stdout %s", res.Exit, out)
	}
}

// Writing a baseline says what it holds: its findings and the frames whose compile time it keeps ("0 items" of a
// baseline holding a frame's compile time read as an empty one); a baseline that cannot be written is the user's
// to fix (BaselineError, ExitError).
func TestRunWriteBaselineSaysWhatItHolds(t *testing.T) {
	base := filepath.Join(t.TempDir(), "warm.json")
	warm := testlogs.Path(t, "compile", "torch-2.14", "c01_mlp.warm.trace")
	res, _, errs, err := gated(t, input(t, warm), RunOptions{Rules: rules(nil), WriteBaseline: base})
	if err != nil || res.Exit != ExitPassed || errs != "torchtriage check: wrote baseline "+base+" (0 items, compile time of 1 frame)\n" {
		t.Errorf("exit %d %v, stderr %q", res.Exit, err, errs)
	}
	res, _, errs, err = gated(t, input(t, fx(t, "torch-2.14/gb_recompile.triage.log")), RunOptions{Rules: rules(nil), WriteBaseline: base})
	if err != nil || res.Exit != ExitPassed || !strings.Contains(errs, "wrote baseline "+base+" (") || strings.Contains(errs, "compile time") {
		t.Errorf("exit %d %v, stderr %q", res.Exit, err, errs)
	}
	res, _, _, err = gated(t, input(t, warm), RunOptions{Rules: rules(nil), WriteBaseline: t.TempDir()})
	if be := (BaselineError{}); !errors.As(err, &be) || res.Exit != ExitError {
		t.Errorf("a baseline into a directory: exit %d %v", res.Exit, err)
	}
}

// A baseline that holds compile time per frame cannot be checked against inputs without compile time: no
// evidence, as MaxCompileTime is; a failure found still fails.
func TestRunBaselineCompileTimeNeedsCompileTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "warm.json")
	if res, _, errs, err := gated(t, input(t, testlogs.Path(t, "compile", "torch-2.14", "c01_mlp.warm.trace")),
		RunOptions{Rules: rules(nil), WriteBaseline: path}); err != nil || res.Exit != ExitPassed {
		t.Fatalf("write: %d %v %s", res.Exit, err, errs)
	}
	base, err := ReadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	against := func(in string) (Outcome, string, string) {
		res, out, errs, err := gated(t, input(t, in), RunOptions{Rules: rules(func(o *Options) { o.Baseline = base })})
		if err != nil {
			t.Fatal(err)
		}
		return res, out, errs
	}
	res, out, errs := against(fx(t, "torch-2.14/r11_transformer.dynamo_debug.log"))
	if res.Exit != ExitNoEvidence || strings.Contains(out, "PASS") || !strings.Contains(errs, "the baseline holds compile time per frame, and the input has none") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", res.Exit, out, errs)
	}
	if res, _, _ := against(fx(t, "torch-2.14/gb_recompile.triage.log")); res.Exit != ExitFailed {
		t.Errorf("new breaks against the baseline: exit %d, want 1", res.Exit)
	}
	if res, _, errs := against(testlogs.Path(t, "compile", "torch-2.14", "c01_mlp.warm2.trace")); res.Exit != ExitPassed {
		t.Errorf("a warm run against its warm baseline: exit %d %s", res.Exit, errs)
	}
}

// A run that did not complete never passes: the real g09a run dir (exit 1, both ranks dead of DistBackendError)
// fails NoCompileErrors (ExitFailed, the result saying it did not complete) and cannot pass MaxGraphBreaks 0
// (ExitDidNotComplete, JSON still printed); stderr says where the run is and its first failure, and no baseline
// is written of it. A log of a process that died of a compile error did not complete either.
func TestRunDeadRunNeverPasses(t *testing.T) {
	dir := testlogs.Path(t, "gpu-e2e", "0005-breaks")
	res, out, errs, err := gated(t, input(t, dir), RunOptions{Rules: rules(func(o *Options) { o.NoCompileErrors = true })})
	if err != nil || res.Exit != ExitFailed || !strings.Contains(out, "2 runtime errors") || !strings.Contains(out, "the run did not complete: exited with code 1") ||
		res.Result.DidNotComplete != "exited with code 1" {
		t.Errorf("run dir, NoCompileErrors: exit %d %v\n%s%s", res.Exit, err, out, errs)
	}
	base := filepath.Join(t.TempDir(), "base.json")
	res, out, errs, err = gated(t, input(t, dir), RunOptions{Rules: rules(func(o *Options) { o.MaxGraphBreaks = 0 }), Format: "json", WriteBaseline: base})
	if err != nil || res.Exit != ExitDidNotComplete || res.Result.Passed || !strings.Contains(out, `"did_not_complete": "exited with code 1"`) ||
		!strings.HasPrefix(errs, "torchtriage check: the repro did not run to completion: exited with code 1; run dir "+dir+"\n") ||
		!strings.Contains(errs, "first failure: rank 1 failed first") ||
		!strings.HasSuffix(errs, "torchtriage check: no baseline written: the run did not complete\n") {
		t.Errorf("run dir, MaxGraphBreaks 0: exit %d %v\n%s%s", res.Exit, err, out, errs)
	}
	if _, err := os.Stat(base); err == nil {
		t.Error("a baseline was written of a run that did not complete")
	}
	res, out, errs, _ = gated(t, input(t, fx(t, "torch-2.14/r07_fullgraph.triage.log")), RunOptions{Rules: rules(func(o *Options) { o.NoCompileErrors = true })})
	if res.Exit != ExitFailed || !strings.Contains(out, "FAIL [--no-compile-errors] 1 compile error: ") ||
		!strings.Contains(out, "the run did not complete: 1 process died of a compile error") ||
		!strings.HasPrefix(errs, "torchtriage check: the run did not complete: 1 process died of a compile error") {
		t.Errorf("fullgraph log: exit %d\n%s%s", res.Exit, out, errs)
	}
}

// A run torchtriage stopped (recorded: a torchrun job of 2 ranks at its 120 s timeout, rank 0 waiting in an
// all_reduce rank 1 never makes, rank 1 asleep) says where each rank was when stopped, from the analysis, before
// any raw tail; torchrun's traceback in that tail ("SignalException: Process 6665 got signal: 2") is labelled as
// its reaction to torchtriage's SIGINT. Before, the tail alone read like the launcher's failure.
func TestRunStoppedRunSaysWhereEachRankWas(t *testing.T) {
	dir := testlogs.Path(t, "recorded", "stopped-dist-hang", "runs", "0002-breaks")
	res, _, errs, _ := gated(t, input(t, dir), RunOptions{Rules: rules(func(o *Options) { o.NoCompileErrors = true })})
	if res.Exit != ExitDidNotComplete {
		t.Fatalf("exit %d\n%s", res.Exit, errs)
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
func TestRunStoppedInImportSaysWhereTheProcessesWere(t *testing.T) {
	dir := testlogs.Path(t, "recorded", "stopped-in-import", "runs", "0001-breaks")
	_, _, errs, _ := gated(t, input(t, dir), RunOptions{Rules: rules(func(o *Options) { o.NoCompileErrors = true })})
	if !strings.Contains(errs, "where each process was when torchtriage stopped the run:\n  2 processes without a rank prefix: hang_extra.py:1 (KeyboardInterrupt)\n") ||
		strings.Contains(errs, "rank 0:") {
		t.Errorf("stderr:\n%s", errs)
	}
}

// The end of a stopped run's stderr is labelled as the reaction to torchtriage's signal, naming it.
func TestTailLabel(t *testing.T) {
	stopped := &triage.Analysis{Run: &report.RunFacts{Outcome: report.OutcomeStopped}}
	for _, c := range []struct {
		a    *triage.Analysis
		want string
	}{
		{nil, "last lines of stderr:"},
		{&triage.Analysis{Run: &report.RunFacts{Outcome: report.OutcomeFailed}}, "last lines of stderr:"},
		{stopped, "last lines of stderr (printed after torchtriage's signal to stop the run):"},
	} {
		if got := tailLabel(c.a); got != c.want {
			t.Errorf("tailLabel: %q, want %q", got, c.want)
		}
	}
	for msg, want := range map[string]string{"Process 1 got signal: 2": "torchtriage's SIGINT",
		"Process 1 got signal: 15": "torchtriage's SIGTERM", "Process 1 got signal: 1": "torchtriage's signal"} {
		if got := signalWords(msg); got != want {
			t.Errorf("signalWords(%q) = %q, want %q", msg, got, want)
		}
	}
}

// A repro whose disk filled is not gated: its logs stop where the disk filled. Run says so (ExitDidNotComplete)
// without analysing them.
func TestRunDiskFull(t *testing.T) {
	in := Input{Dir: "runs/0001-breaks", DiskFull: "no space left on device writing stderr.log",
		Analyze: func() *triage.Analysis { t.Fatal("analysed the logs of a run whose disk filled"); return nil }}
	res, out, errs, err := gated(t, in, RunOptions{Rules: rules(func(o *Options) { o.MaxGraphBreaks = 0 }), Format: "json"})
	if res.Exit != ExitDidNotComplete || out != "" || errs != "" ||
		err == nil || err.Error() != "disk full: no space left on device writing stderr.log; run dir runs/0001-breaks keeps what was written before" {
		t.Errorf("exit %d %v\nstdout %q\nstderr %q", res.Exit, err, out, errs)
	}
}

package triage_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Logs alone do not say what TORCH_LOGS was: r06 (the funcol fix) ran with graph_breaks,recompiles and printed
// none, yet its verdict and the gate said "TORCH_LOGS did not ask for them". They say what the log shows: no such
// record, and no line tagged with their names.
func TestLogsAloneDoNotClaimTorchLogs(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/r06_dist_funcol.triage.log")), nil, nil)
	if s := a.Verdict.Summary; strings.Contains(s, "TORCH_LOGS did not ask") || !strings.Contains(s, "no such records, and no line tagged graph_breaks or recompiles") {
		t.Errorf("verdict: %q", s)
	}
	if why := gate.MissingEvidence(a, gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}); strings.Contains(why, "TORCH_LOGS did not ask") ||
		!strings.Contains(why, "no graph_breaks records and no line tagged graph_breaks") {
		t.Errorf("gate: %q", why)
	}
}

// The steady report of logs alone does not say CUDA-graph skips "were not logged": nothing says which names were
// on (tlparse's simple.log, a trace: "cudagraph skips unknown" in its counts line, "were not logged" below it).
func TestNothingTextOfLogsAloneSaysNoSign(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, Fx("tlparse/simple.log")), nil, nil)
	if a.Verdict.State != triage.StateSteady || a.Evidence.CudagraphSkipsLogged {
		t.Fatalf("the test wants a steady log without skips logged: %s %+v", a.Verdict.State, a.Evidence)
	}
	var txt strings.Builder
	render.WriteReportText(&txt, a, text.Options{Width: 300})
	if s := txt.String(); strings.Contains(s, "skips were not logged") || !strings.Contains(s, "no sign CUDA-graph skips were logged (") {
		t.Errorf("text:\n%s", s)
	}
}

// A baseline's item is "improved, gone" only where the run could have shown it: against a log whose graph
// breaks were not logged, the baseline's breaks are not gone (they read "improved, gone" all the same); a note
// says they were not compared.
func TestBaselineGoneOnlyWhereLogged(t *testing.T) {
	base := gate.NewBaseline(triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/gb_recompile.triage.log")), nil, nil))
	res := gate.Check(triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/r12_limit_str.triage.log")), nil, nil), gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, Baseline: base})
	for _, s := range res.Improved {
		if strings.HasPrefix(s, "graph break ") {
			t.Errorf("improved, gone: %s (graph breaks were not logged)", s)
		}
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "graph breaks of the baseline not compared: the input shows no sign they were logged") {
		t.Errorf("notes %q", res.Notes)
	}
	// recompiles were logged: the baseline's are gone for real
	if !strings.Contains(strings.Join(res.Improved, "\n"), "recompile reason f: size") {
		t.Errorf("improved %q", res.Improved)
	}
}

// Dynamo's own exception text printed by the program that caught it (fullgraph_err prints str(e): the
// "from user code:" frame, Dynamo's "Set TORCHDYNAMO_VERBOSE=1 …" / "You can suppress this exception …" epilogue)
// is torch output: the report read "the input holds no torch output at all". Nothing more is made of it (the
// program caught it: no compile error, as expected.json counts), so the verdict is the no-evidence of a run
// whose graph breaks and recompiles were not shown to be logged.
func TestCaughtDynamoMessageIsTorchOutput(t *testing.T) {
	for _, name := range []string{"torch-2.14/fullgraph_err.caught.log", "torch-2.6/fullgraph_err.caught.log"} {
		a := triage.Analyze(triage.LoadReport(t, Fx(name)), nil, nil)
		if !a.Evidence.TorchSeen || !slices.Contains(a.Evidence.TorchSeenBy, "a torch exception message") {
			t.Errorf("%s: torch seen %v by %v", name, a.Evidence.TorchSeen, a.Evidence.TorchSeenBy)
		}
		if v := a.Verdict; v.State != triage.StateNoEvidence || strings.Contains(v.Summary, "no torch output") {
			t.Errorf("%s: verdict %s: %s", name, v.State, v.Summary)
		}
		if c := a.Report.Counts; c.CompileErrors != 0 || c.GraphBreaks != 0 {
			t.Errorf("%s: counts %+v", name, c)
		}
	}
	// a program's own text that names torch is not torch output
	plain := filepath.Join(t.TempDir(), "plain.log")
	os.WriteFile(plain, []byte("loading torch model\nSet TORCH_LOGS to see more\nepoch 1 done\n"), 0o644)
	if a := triage.Analyze(triage.LoadReport(t, plain), nil, nil); a.Evidence.TorchSeen {
		t.Errorf("plain output: torch seen by %v", a.Evidence.TorchSeenBy)
	}
}

// A Python warning raised inside torch (torch/_inductor/cudagraph_trees.py: "Unable to hit fast path of
// CUDAGraphs …") is torch output: g15b read "no torch output: nothing counted" and "get torch output first" above
// the two findings made of torch's own warnings.
func TestTorchWarningIsTorchOutput(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, Fx("torch-2.11-cuda/g15b_cg_pending_backward_zero_grad.triage.log")), nil, nil)
	if !a.Evidence.TorchSeen || !slices.Contains(a.Evidence.TorchSeenBy, "a torch warning") {
		t.Errorf("torch seen %v by %v", a.Evidence.TorchSeen, a.Evidence.TorchSeenBy)
	}
	var txt strings.Builder
	render.WriteReportText(&txt, a, text.Options{Width: 200})
	if s := txt.String(); strings.Contains(s, "no torch output") || strings.Contains(s, "get torch output first") {
		t.Errorf("report:\n%s", s)
	}
	// a warning the program raised itself is not torch's
	user := filepath.Join(t.TempDir(), "user.log")
	os.WriteFile(user, []byte("/tmp/repro/x.py:17: UserWarning: Unable to hit fast path of CUDAGraphs because of pending, uninvoked backwards.\n  warnings.warn(\n"), 0o644)
	if a := triage.Analyze(triage.LoadReport(t, user), nil, nil); slices.Contains(a.Evidence.TorchSeenBy, "a torch warning") {
		t.Errorf("a user's warning: torch seen by %v", a.Evidence.TorchSeenBy)
	}
}

// A log that ends inside a torch log line was cut (a copy of a log still being written, a truncated file): torch's
// logging ends every line. The report says it is partial; a log whose last line is the program's own output
// without a newline is not.
func TestLogCutInsideATorchLine(t *testing.T) {
	data, err := os.ReadFile(Fx("torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	for name, cut := range map[string][]byte{
		"mid-prefix.log":  data[:2500], // "V1121 07:47:33.827000 1933 torch/_dynamo/symbolic_convert"
		"mid-message.log": data[:bytesIndexAfter(t, data, "Graph Break Reason: Encountered", 2)],
		"ranked.log":      []byte("[rank0]:" + strings.ReplaceAll(string(data[:2500]), "\n", "\n[rank0]:")),
	} {
		a := triage.Analyze(triage.LoadReport(t, write(name, cut)), nil, nil)
		if !a.Evidence.Partial || !strings.Contains(strings.Join(a.Evidence.PartialReasons, "\n"), "its last torch log line stops mid-line") {
			t.Errorf("%s: partial %v %q", name, a.Evidence.Partial, a.Evidence.PartialReasons)
		}
	}
	for name, whole := range map[string][]byte{
		"whole.log":      data,
		"print-last.log": append(append([]byte{}, data...), "loss 0.5"...), // the program's print(end="")
	} {
		if a := triage.Analyze(triage.LoadReport(t, write(name, whole)), nil, nil); a.Evidence.Partial {
			t.Errorf("%s: partial %q", name, a.Evidence.PartialReasons)
		}
	}
}

// bytesIndexAfter is the index n bytes past the first s in data.
func bytesIndexAfter(t *testing.T, data []byte, s string, n int) int {
	t.Helper()
	i := strings.Index(string(data), s)
	if i < 0 {
		t.Fatalf("no %q", s)
	}
	return i + len(s) + n
}

package triage_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/steady"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// A vLLM log alone (synthetic_vllm_serving.log, its lines from torch-2.15-and-frameworks.md §4.1): the kernel
// vLLM's JIT monitor saw compile during inference and the compile range compiled after `torch.compile took …
// in total` are compiles after warm-up, each a finding that says its source (the log) and what orders it (no
// step); the compile range and the load failure before that line are warm-up. Before, the log was plain output:
// no steady state, no finding, and check --no-compile-after-warmup could not judge it.
func TestServingLogAfterWarmup(t *testing.T) {
	a := triagetest.AnalyzeFiles(t, "synthetic/synthetic_vllm_serving.log")
	aw := a.AfterWarmup
	if aw == nil || aw.StepSource != steady.StepsLog || !aw.Judged() || len(aw.Events) != 2 {
		t.Fatalf("after warm-up: %+v", aw)
	}
	jit, graph := aw.Events[0], aw.Events[1]
	if jit.Kind != steady.JIT || jit.Source != steady.SourceLog || jit.Step != -1 || jit.Line != 7 || jit.Frame != "fused_moe_kernel (key=…)" ||
		!strings.Contains(jit.Order, "JIT monitor reports only compiles during inference") {
		t.Errorf("jit: %+v", jit)
	}
	if graph.Kind != steady.GraphCompile || graph.Line != 8 || graph.Frame != "(8193, 16384)" || !strings.Contains(graph.Order, "line 5") {
		t.Errorf("graph: %+v", graph)
	}
	var got []findings.Finding
	for _, f := range a.Findings {
		if f.Kind == findings.KindCompileAfterWarmup {
			got = append(got, f)
		}
	}
	if len(got) != 2 {
		t.Fatalf("%d compile_after_warmup findings: %+v", len(got), got)
	}
	for _, f := range got {
		if !strings.HasPrefix(f.Basis, "log: ") || f.Playbook != "warmup-serving-compile" {
			t.Errorf("%s: basis %q, playbook %v", f.Title, f.Basis, f.Playbook)
		}
		if len(f.Evidence) != 1 || f.Evidence[0].InputLine == 0 {
			t.Errorf("%s: evidence %+v", f.Title, f.Evidence)
		}
	}
	// the times the lines state, and the warm start that went cold, in one line text and Markdown print
	sv := a.Report.Serving
	if sv == nil || sv.CompileS != 264.63 || sv.RangeCompileS != 75.26 || len(sv.Lines) != 8 {
		t.Fatalf("serving: %+v", sv)
	}
	words := sv.Words()
	for _, w := range []string{"torch.compile took 264.63 s in total", "2 graphs compiled in 75.26 s",
		"AOT load failure (reason: Source code has changed since the last compilation.)", "1 kernel JIT compile during inference"} {
		if !strings.Contains(words, w) {
			t.Errorf("serving words lack %q: %s", w, words)
		}
	}
	for _, format := range []string{"text", "markdown"} {
		out := triagetest.Render(t, a, format, 400)
		if !strings.Contains(out, "Serving log") || !strings.Contains(out, "1 JIT compile at line 7 of synthetic") {
			t.Errorf("%s lacks the serving line or the steady state:\n%s", format, out)
		}
	}
	var js struct {
		Serving     json.RawMessage `json:"serving"`
		AfterWarmup struct {
			StepSource string `json:"step_source"`
			Events     []struct {
				Kind, Source, Order string
				Step                int
			} `json:"events"`
		} `json:"after_warmup"`
	}
	if err := json.Unmarshal([]byte(triagetest.Render(t, a, "json", 0)), &js); err != nil {
		t.Fatal(err)
	}
	if js.AfterWarmup.StepSource != "log" || len(js.AfterWarmup.Events) != 2 || js.AfterWarmup.Events[0].Source != "log" ||
		js.AfterWarmup.Events[0].Order == "" || js.AfterWarmup.Events[0].Step != -1 || len(js.Serving) == 0 {
		t.Errorf("json: %+v", js)
	}
}

// check --no-compile-after-warmup on a serving log: fails (1) on the compiles after vLLM's warm-up, passes on a
// warm start that compiled nothing after it and on SGLang's capture whose dynamic-shape compile came inside it;
// a log that shows no end of warm-up is nothing to judge (4).
func TestServingLogGate(t *testing.T) {
	o := gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileAfterWarmup: true}}
	for _, c := range []struct {
		name string
		exit int
	}{{"synthetic_vllm_serving.log", 1}, {"synthetic_vllm_warm_start.log", 0}, {"synthetic_sglang_capture.log", 0}} {
		out, stdout, stderr := triagetest.CheckPaths(t, o, triagetest.Fixture(t, "synthetic/"+c.name))
		if out.Exit != c.exit {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.name, out.Exit, c.exit, stdout, stderr)
		}
	}
	// the first three lines: a load failure and a compile range, no line that ends warm-up
	data, err := os.ReadFile(triagetest.Fixture(t, "synthetic/synthetic_vllm_serving.log"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cold_start.log")
	lines := strings.SplitAfter(string(data), "\n")
	if err := os.WriteFile(cut, []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stdout, stderr := triagetest.CheckPaths(t, o, cut)
	if out.Exit != 4 || !strings.Contains(stdout+stderr, "shows no end of warm-up") {
		t.Errorf("no end of warm-up: exit %d\n%s%s", out.Exit, stdout, stderr)
	}
}

// vLLM's JIT monitor in error mode: the activation line with mode=error and the exception line alone, as
// torch-2.15-and-frameworks.md §4.1 quotes them (synthetic_vllm_jit_error.log, written here: the doc quotes no
// traceback). The process died of the RuntimeError it raised, and that JIT compile is a compile after warm-up too.
// Before, the steady state said nothing compiled after the monitor's activation while the process died of a
// compile during inference.
func TestServingJITErrorMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "synthetic_vllm_jit_error.log")
	text := "[jit_monitor.py:88] Kernel JIT monitor activated; monitored JIT compilations during inference will use mode=error.\n" +
		"RuntimeError: Triton kernel JIT compilation during inference: fused_moe_kernel\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	a := triagetest.AnalyzeFiles(t, path)
	if a.Report.Counts.RuntimeErrors != 1 {
		t.Errorf("runtime errors %d", a.Report.Counts.RuntimeErrors)
	}
	aw := a.AfterWarmup
	if aw == nil || len(aw.Events) != 1 || aw.Events[0].Kind != steady.JIT || aw.Events[0].Frame != "fused_moe_kernel" ||
		!strings.Contains(aw.Summary(), "raised RuntimeError: mode=error") {
		t.Fatalf("after warm-up: %+v", aw)
	}
	o := gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileAfterWarmup: true}}
	out, stdout, stderr := triagetest.CheckPaths(t, o, path)
	if out.Exit != 1 {
		t.Errorf("exit %d\n%s%s", out.Exit, stdout, stderr)
	}
}

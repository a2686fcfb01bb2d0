package logparse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// servingOf parses text and returns its serving lines, read, and every record's kind.
func servingOf(t *testing.T, text string, opt Options) ([]ServingEvent, []*Record) {
	t.Helper()
	var evs []ServingEvent
	var recs []*Record
	err := Parse(strings.NewReader(text), opt, func(r *Record) {
		recs = append(recs, r)
		if ev, ok := r.Serving(); ok {
			evs = append(evs, ev)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return evs, recs
}

func readSynthetic(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "synthetic", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// vLLM's lines as torch-2.15-and-frameworks.md §4.1 quotes them (synthetic_vllm_serving.log): each one line, one
// record, read with its numbers; before, they were plain output.
func TestServingVLLMLines(t *testing.T) {
	for _, skip := range []bool{false, true} {
		evs, _ := servingOf(t, readSynthetic(t, "synthetic_vllm_serving.log"), Options{SkipOther: skip})
		want := []ServingKind{ServingLoadFailure, ServingRangeCompile, ServingRangeCached, ServingAOTSaved,
			ServingCompileTotal, ServingJITMonitorOn, ServingJIT, ServingRangeCompile}
		if len(evs) != len(want) {
			t.Fatalf("skipOther=%v: %d serving lines, want %d: %+v", skip, len(evs), len(want), evs)
		}
		for i, k := range want {
			if evs[i].Kind != k {
				t.Errorf("line %d: %v, want %v", i+1, evs[i].Kind, k)
			}
		}
		if e := evs[0]; e.Reason != "Source code has changed since the last compilation." || !strings.HasSuffix(e.Path, "/rank_0_0/model") ||
			e.Emitter != "decorators.py:412" {
			t.Errorf("load failure: %+v", e)
		}
		if e := evs[1]; e.Range != "(1, 8192)" || e.Seconds != 34.06 {
			t.Errorf("compile range: %+v", e)
		}
		if e := evs[4]; e.Seconds != 264.63 || e.Emitter != "monitor.py:34" {
			t.Errorf("total: %+v", e)
		}
		if e := evs[5]; e.Mode != "warn" {
			t.Errorf("monitor: %+v", e)
		}
		if e := evs[6]; e.JIT != "Triton kernel" || e.Kernel != "fused_moe_kernel (key=…)" {
			t.Errorf("jit: %+v", e)
		}
	}
}

// The wording drift of vLLM's compile-time monitor: "takes" and "took", with a "[tag] " in front or not, an empty
// load-failure reason (torch 2.10.0), CuTeDSL's JIT line; SGLang's capture lines with their time.
func TestServingWordings(t *testing.T) {
	cases := []struct {
		line string
		kind ServingKind
		sec  float64
		tag  string
	}{
		{"[monitor.py:34] torch.compile takes 12.50 s in total", ServingCompileTotal, 12.5, ""},
		{"[tag] torch.compile took 264.63 s in total", ServingCompileTotal, 264.63, "tag"},
		{"[monitor.py:34] [tag] torch.compile took 1.00 s in total", ServingCompileTotal, 1, "tag"},
		{"[tag] Initial profiling/warmup run took 3.20 s", ServingWarmupRun, 3.2, "tag"},
		{"Compiling model again due to a load failure from /c/model, reason: ", ServingLoadFailure, -1, ""},
		{"CuTeDSL JIT compilation during inference: gemm", ServingJIT, -1, ""},
		{"Capture piecewise CUDA graph end. Time elapsed: 176.68 s. mem usage=5.12 GB. avail mem=31.68 GB.", ServingCaptureEnd, 176.68, ""},
		{"Directly load the compiled graph(s) for compile range (1, 2048) from the cache, took 1.122 s", ServingRangeLoaded, 1.122, ""},
	}
	for _, c := range cases {
		evs, _ := servingOf(t, c.line+"\n", Options{})
		if len(evs) != 1 || evs[0].Kind != c.kind || evs[0].Seconds != c.sec || evs[0].Tag != c.tag {
			t.Errorf("%q: %+v", c.line, evs)
		}
	}
	if evs, _ := servingOf(t, "Compiling model again due to a load failure from /c/model, reason: \n", Options{}); len(evs) == 1 && evs[0].Reason != "" {
		t.Errorf("empty reason read as %q", evs[0].Reason)
	}
	// words that only start like them are no serving line
	for _, l := range []string{"torch.compile took a while", "Compiling a graph for dynamic shapes is slow", "[x] Capture the flag"} {
		if evs, _ := servingOf(t, l+"\n", Options{}); len(evs) != 0 {
			t.Errorf("%q read as %+v", l, evs)
		}
	}
}

// A serving line behind other text on its line (a framework's level and time, a launcher's label) is found
// behind its "[file.py:N] ", and it is one line: the user output after it is no part of it.
func TestServingBehindPrefix(t *testing.T) {
	text := "PREFIX 12:00:01 [backends.py:128] Compiling a graph for compile range (1, 8192) takes 34.06 s\n" +
		"served request 1\n" +
		"PREFIX 12:00:02 [monitor.py:34] [tag] torch.compile took 40.00 s in total\n"
	for _, opt := range []Options{{KeepText: true}, {SkipOther: true}} {
		evs, recs := servingOf(t, text, opt)
		if len(evs) != 2 || evs[0].Range != "(1, 8192)" || evs[1].Seconds != 40 || evs[1].Tag != "tag" || evs[1].Emitter != "monitor.py:34" {
			t.Fatalf("%+v: %+v", opt, evs)
		}
		for _, r := range recs {
			if r.Kind == KindServing && len(r.Lines) != 1 {
				t.Errorf("serving record of %d lines: %q", len(r.Lines), r.Lines)
			}
		}
	}
}

// SGLang's piecewise capture (synthetic_sglang_capture.log, §4.2's lines).
func TestServingSGLangCapture(t *testing.T) {
	evs, _ := servingOf(t, readSynthetic(t, "synthetic_sglang_capture.log"), Options{SkipOther: true})
	if len(evs) != 4 || evs[0].Kind != ServingCaptureBegin || evs[1].Sizes != "[4, 8, 12, 16, 20]" ||
		evs[2].Kind != ServingShapeCompile || evs[2].Seconds != 3.38 || evs[3].Seconds != 176.68 {
		t.Fatalf("%+v", evs)
	}
}

func BenchmarkServingHeadMiss(b *testing.B) {
	lines := [][]byte{[]byte("Graph break in user code at /tmp/x.py:12"), []byte("[0/0] [__recompiles] Recompiling function f"),
		[]byte("step 12 loss 0.25 [ok] done"), []byte("torch._dynamo hit config.recompile_limit (8)")}
	for b.Loop() {
		for _, l := range lines {
			_ = strongHead(l)
			_ = servingInside(l)
		}
	}
}

// ParseServing takes any text without a panic, and what it reads as a serving line has the kind its head says.
func FuzzParseServing(f *testing.F) {
	for _, s := range []string{"[backends.py:128] Compiling a graph for compile range (1, 8192) takes 34.06 s",
		"[monitor.py:34] [tag] torch.compile took 1.00 s in total", "Capture piecewise CUDA graph end. Time elapsed: 1 s.",
		"[a] [b] [c] saved AOT compiled function to /x", "Compiling model again due to a load failure"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ev, ok := ParseServing(s)
		if ok && ev.Kind == ServingNone {
			t.Fatalf("%q read with no kind", s)
		}
		_ = servingInside([]byte(s))
	})
}

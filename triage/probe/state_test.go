package probe

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The probe writes the start file when torch is imported and follows the compile callbacks: a compile that
// started and never ended leaves "compiling" with the compile id, trigger and function.
const compileScript = `import sys, types
import torch
import torch._dynamo
from torch._dynamo.callback import callback_handler

def model_forward(x):
    return x

args = types.SimpleNamespace(callback_trigger=types.SimpleNamespace(name="DYNAMO"), compile_id="0/1")

def _compile(code):
    callback_handler.run_start_callbacks(args)

callback_handler.run_start_callbacks(types.SimpleNamespace(callback_trigger=types.SimpleNamespace(name="DYNAMO"), compile_id="0/0"))
callback_handler.run_end_callbacks(args)
_compile(model_forward.__code__)
print("ok")
`

func TestProbeStartAndCompileState(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t), "RANK=3")
	res := runPython(t, env, compileScript)
	if res.stdout != "ok\n" || res.stderr != "" || res.code != 0 {
		t.Fatalf("repro output changed: %+v", res)
	}
	starts, errs := ReadStarts(runDir)
	if len(errs) != 0 || len(starts) != 1 {
		t.Fatalf("ReadStarts: %+v %v (files %v)", starts, errs, probeFiles(t, runDir))
	}
	s := starts[0]
	if s.Rank != 3 || s.Torch != "9.9.0+fake" || s.PID <= 0 || !strings.HasPrefix(s.Python, "3.") || s.Time <= 0 {
		t.Errorf("start: %+v", s)
	}
	if filepath.Base(s.File) != "start-rank3-"+itoa(s.PID)+".json" {
		t.Errorf("start file %s", s.File)
	}
	states, errs := ReadCompileStates(runDir)
	if len(errs) != 0 || len(states) != 1 {
		t.Fatalf("ReadCompileStates: %+v %v", states, errs)
	}
	c := states[0]
	if c.Phase != "compiling" || c.CompileID != "0/1" || c.Trigger != "DYNAMO" || c.Function != "model_forward" ||
		c.Compiles != 1 || c.Rank != 3 || c.Alive {
		t.Errorf("compile state: %+v", c)
	}
	if d := CompilingNow(runDir, time.Now()); d != "" {
		t.Errorf("a dead process is not compiling: %q", d)
	}
	c.Alive = true
	if d := DescribeCompiling([]CompileState{c, {Rank: 0, Phase: "idle", Alive: true}}, c.Since().Add(130*time.Second)); d != "rank 3 compiling `model_forward` [0/1] for 2m10s · rank 0 not compiling (waiting)" {
		t.Errorf("describe: %q", d)
	}
}

// A 2.6-style callback (no argument) still records the phase; torch not imported: no file at all.
func TestProbeCompileStateWithoutArgs(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t))
	res := runPython(t, env, "import torch._dynamo\nfrom torch._dynamo.callback import callback_handler\ncallback_handler.run_start_callbacks()\ncallback_handler.run_end_callbacks()\n")
	if res.code != 0 || res.stderr != "" {
		t.Fatalf("%+v", res)
	}
	states, _ := ReadCompileStates(runDir)
	if len(states) != 1 || states[0].Phase != "idle" || states[0].Compiles != 1 || states[0].Rank != 0 || states[0].RankSource != "default" {
		t.Fatalf("states %+v", states)
	}
	runDir, env = installProbe(t, fakeTorch(t))
	runPython(t, env, "print(1)\n")
	if st, _ := ReadStarts(runDir); len(st) != 0 {
		t.Errorf("no torch, yet start files %+v", st)
	}
}

// Cache-key knobs hold "KEY" in their names but no secret: their values are recorded.
func TestProbeKeepsCacheKeyTag(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t), "TORCH_COMPILE_CACHE_KEY_TAG=v2", "TORCH_HUB_TOKEN=s3cret")
	runPython(t, env, "import torch\n")
	infos, _ := ReadDir(runDir)
	if len(infos) != 1 || infos[0].Env["TORCH_COMPILE_CACHE_KEY_TAG"] != "v2" || infos[0].Env["TORCH_HUB_TOKEN"] != "<redacted>" {
		t.Fatalf("env %+v", infos)
	}
}

// A process that is no rank (no RANK: the probe's rank 0 is a default) compiles as "the process", not "rank 0";
// one RANK named keeps its number.
func TestDescribeCompilingOfAProcessWithoutRank(t *testing.T) {
	c := CompileState{Rank: 0, RankSource: "default", Phase: "compiling", Function: "f", CompileID: "0/0", Alive: true, SinceUnix: 1000}
	if d := DescribeCompiling([]CompileState{c}, c.Since().Add(5*time.Second)); d != "the process compiling `f` [0/0] for 5s" {
		t.Errorf("describe: %q", d)
	}
	c.RankSource = "env"
	if d := DescribeCompiling([]CompileState{c}, c.Since().Add(5*time.Second)); d != "rank 0 compiling `f` [0/0] for 5s" {
		t.Errorf("describe a rank: %q", d)
	}
}

// A stall's note (meta.json, runner) is DescribeCompiling's words: read back, they name the ranks compiling.
func TestParseCompiling(t *testing.T) {
	now := time.Unix(1000, 0)
	states := []CompileState{
		{Rank: 1, RankSource: "env", Phase: "compiling", Function: "step", CompileID: "0/0", SinceUnix: 980, Alive: true},
		{Rank: 0, RankSource: "env", Phase: "idle", Alive: true},
	}
	words := DescribeCompiling(states, now)
	got := ParseCompiling(words)
	if words != "rank 1 compiling `step` [0/0] for 20s · rank 0 not compiling (waiting)" || len(got) != 1 ||
		got[0] != (CompilingPart{Rank: 1, Function: "step", CompileID: "0/0", For: 20 * time.Second}) {
		t.Errorf("%q → %+v", words, got)
	}
	if got := ParseCompiling("the process compiling `forward` for 2m10s"); len(got) != 1 || got[0].Rank != -1 || got[0].For != 130*time.Second {
		t.Errorf("%+v", got)
	}
}

package probe

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const torchScript = `import torch
import torch._dynamo
import torch._inductor.config
from torch._dynamo import utils

utils.counters["graph_break"]["Unsupported Tensor.item() call"] += 2
utils.counters["graph_break"]["Failed to trace builtin operator print"] += 3
utils.counters["stats"]["unique_graphs"] = 4
utils.counters["frames"]["total"] = 5
utils.counters["frames"]["ok"] = 4
utils.compilation_time_metrics["entire_frame_compile"] = [0.5, 0.25]
torch._dynamo.config.recompile_limit = 3
print("hello")
`

func TestProbeWritesRankInfo(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t),
		"RANK=1", "LOCAL_RANK=1", "WORLD_SIZE=2", "TORCH_LOGS=graph_breaks,recompiles",
		"NCCL_DEBUG=INFO", "TORCH_HUB_TOKEN=s3cret", "CUDA_VISIBLE_DEVICES=1", "FAKETORCH_CUDA=1",
		"UNRELATED_VAR=x")
	res := runPython(t, env, torchScript)
	if res.stdout != "hello\n" || res.stderr != "" || res.code != 0 {
		t.Fatalf("repro output changed: %+v", res)
	}
	infos, errs := ReadDir(runDir)
	if len(errs) != 0 || len(infos) != 1 {
		t.Fatalf("ReadDir: %v infos, errors %v", len(infos), errs)
	}
	in := infos[0]
	if in.Rank != 1 || in.LocalRank != 1 || in.WorldSize != 2 || in.RankSource != "env" || in.PID <= 0 {
		t.Errorf("rank fields: %+v", in)
	}
	if filepath.Base(in.File) != "rank1-"+strconv.Itoa(in.PID)+".json" {
		t.Errorf("file name %s", in.File)
	}
	if in.Torch != "9.9.0+fake" || in.CUDA != "12.8" || in.GPU != "Fake GPU 9000" || in.Capability != "9.0" {
		t.Errorf("versions/GPU: %+v", in)
	}
	if !strings.HasPrefix(in.Python, "3.") || in.Host == "" || !strings.HasSuffix(in.Argv0, "repro.py") {
		t.Errorf("python/host/argv0: %q %q %q", in.Python, in.Host, in.Argv0)
	}
	gb := in.Counters["graph_break"]
	if gb["Unsupported Tensor.item() call"] != 2 || gb["Failed to trace builtin operator print"] != 3 {
		t.Errorf("graph_break counters: %v", gb)
	}
	if in.Counters["stats"]["unique_graphs"] != 4 || in.Counters["frames"]["ok"] != 4 {
		t.Errorf("counters: %v", in.Counters)
	}
	if got := in.CompileTimes["entire_frame_compile"]; got != 0.75 {
		t.Errorf("compile time %v, want 0.75 (sum of the csv aggregate)", got)
	}
	wantConfig := map[string]any{
		"dynamo.recompile_limit": 3.0, "dynamo.capture_scalar_outputs": false,
		"inductor.triton.cudagraphs": false, "inductor.max_autotune": false,
		"torch.default_dtype": "torch.float32", "torch.deterministic_algorithms": false,
	}
	for k, v := range wantConfig {
		if in.Config[k] != v {
			t.Errorf("config %s = %#v, want %#v", k, in.Config[k], v)
		}
	}
	if _, ok := in.Config["dynamo.cache_size_limit"]; ok {
		t.Error("a key the config module lacks must be left out")
	}
	wantEnv := map[string]string{
		"TORCH_LOGS": "graph_breaks,recompiles", "NCCL_DEBUG": "INFO",
		"TORCH_HUB_TOKEN": "<redacted>", "CUDA_VISIBLE_DEVICES": "1",
	}
	for k, v := range wantEnv {
		if in.Env[k] != v {
			t.Errorf("env %s = %q, want %q", k, in.Env[k], v)
		}
	}
	for _, k := range []string{"UNRELATED_VAR", "TORCHTRIAGE_PROBE_DIR", "RANK"} {
		if _, ok := in.Env[k]; ok {
			t.Errorf("env %s must not be recorded", k)
		}
	}
	if in.EnvHash == "" || in.EnvHash != envHash(in.Env) {
		t.Errorf("env hash %q, Go computes %q", in.EnvHash, envHash(in.Env))
	}
	if names := probeFiles(t, runDir); len(names) != 2 || names[1] != "start-"+filepath.Base(in.File) {
		t.Errorf("probe dir should hold only the rank file and the start file (marker removed at exit): %v", names)
	}
}

func TestProbeRankFromProcessGroup(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t), "FAKETORCH_DIST_RANK=3", "FAKETORCH_DIST_WORLD=4")
	if res := runPython(t, env, "import torch\n"); res.code != 0 || res.stderr != "" {
		t.Fatalf("%+v", res)
	}
	infos, errs := ReadDir(runDir)
	if len(errs) != 0 || len(infos) != 1 {
		t.Fatalf("ReadDir: %v %v", infos, errs)
	}
	in := infos[0]
	if in.Rank != 3 || in.WorldSize != 4 || in.RankSource != "dist" || in.GPU != "" {
		t.Errorf("%+v", in)
	}
	if len(in.Counters) != 0 || len(in.CompileTimes) != 0 {
		t.Errorf("torch._dynamo was never imported: want no counters, got %v %v", in.Counters, in.CompileTimes)
	}
}

func TestProbeChainsUserSitecustomize(t *testing.T) {
	userDir := t.TempDir()
	marker := filepath.Join(t.TempDir(), "user-site-ran")
	site := "import os\nopen(os.environ['USER_SITE_MARKER'], 'w').write('ran')\nFLAG = 'user-site'\n"
	if err := os.WriteFile(filepath.Join(userDir, "sitecustomize.py"), []byte(site), 0o644); err != nil {
		t.Fatal(err)
	}
	pp := userDir + string(os.PathListSeparator) + fakeTorch(t)
	_, env := installProbe(t, pp, "USER_SITE_MARKER="+marker)
	script := "import sys, sitecustomize\nprint(sitecustomize.FLAG)\nprint(any(p.endswith('probe') for p in sys.path))\n"
	res := runPython(t, env, script)
	if res.stdout != "user-site\nFalse\n" || res.stderr != "" || res.code != 0 {
		t.Fatalf("want the user's sitecustomize as `sitecustomize` and the probe dir off sys.path: %+v", res)
	}
	if data, err := os.ReadFile(marker); err != nil || string(data) != "ran" {
		t.Fatalf("user sitecustomize did not run: %q %v", data, err)
	}
}

func TestProbeWritesNothingWithoutTorch(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t), "RANK=0")
	if res := runPython(t, env, "print('no torch here')\n"); res.stdout != "no torch here\n" || res.code != 0 {
		t.Fatalf("%+v", res)
	}
	if names := probeFiles(t, runDir); len(names) != 0 {
		t.Errorf("want an empty probe dir, got %v", names)
	}
}

func TestProbeSkipsLauncherAndTorchHelpers(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t))
	// torchrun's agent: imported torch.distributed.run, has no RANK.
	runPython(t, env, "import torch, torch.distributed.run\n")
	// a process torch starts for itself: its main file lives inside the torch package.
	runFile(t, env, filepath.Join(fakeTorch(t), "torch", "_inductor", "compile_worker", "__main__.py"))
	if names := probeFiles(t, runDir); len(names) != 0 {
		t.Fatalf("launcher/helper processes must not be reported as ranks: %v", names)
	}
	// a worker of the same launcher has RANK and is reported.
	runPython(t, append(env, "RANK=0"), "import torch, torch.distributed.run\n")
	if infos, errs := ReadDir(runDir); len(infos) != 1 || len(errs) != 0 {
		t.Fatalf("worker not reported: %v %v", infos, errs)
	}
}

func TestProbeLeavesOutputUnchanged(t *testing.T) {
	failingSite := t.TempDir()
	err := os.WriteFile(filepath.Join(failingSite, "sitecustomize.py"), []byte("raise RuntimeError('boom')\n"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, pythonPath, script string }{
		{"prints and exit code", fakeTorch(t), torchScript +
			"import sys\nsys.stderr.write('to stderr\\n')\nprint('out', end='')\nsys.exit(3)\n"},
		{"uncaught exception", fakeTorch(t), "import torch\nprint('before')\nraise ValueError('bad input')\n"},
		{"failing user sitecustomize", failingSite + string(os.PathListSeparator) + fakeTorch(t),
			"import torch\nprint('still runs')\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "repro.py")
			if err := os.WriteFile(path, []byte(c.script), 0o644); err != nil {
				t.Fatal(err)
			}
			plain := runFile(t, append(cleanEnv(), "PYTHONPATH="+c.pythonPath), path)
			_, env := installProbe(t, c.pythonPath)
			probed := runFile(t, env, path)
			if plain != probed {
				t.Errorf("output differs with the probe\nwithout: %+v\nwith:    %+v", plain, probed)
			}
			if plain.stdout == "" && plain.stderr == "" {
				t.Error("the case printed nothing; it would not catch a difference")
			}
		})
	}
}

// torch writes TORCHINDUCTOR_CACHE_DIR itself (cache_dir(), on importing its Inductor modules): the process's
// settings at exit are the user's, not torch's default written back (compare listed "TORCHINDUCTOR_CACHE_DIR:
// (unset) → /tmp/torchinductor_root" between a run that used Inductor and one that did not). A directory the
// program set is its own.
func TestProbeLeavesOutTheCacheDirTorchSetItself(t *testing.T) {
	for _, c := range []struct {
		script, want string
	}{
		{"import torch\nimport torch._inductor.cpp_builder\n", ""},
		{"import os\nos.environ['TORCHINDUCTOR_CACHE_DIR'] = '/mine'\nimport torch\nimport torch._inductor.cpp_builder\n", "/mine"},
	} {
		runDir, env := installProbe(t, fakeTorch(t))
		if res := runPython(t, env, c.script); res.code != 0 || res.stderr != "" {
			t.Fatalf("%+v", res)
		}
		infos, errs := ReadDir(runDir)
		if len(errs) != 0 || len(infos) != 1 {
			t.Fatalf("ReadDir: %v %v", infos, errs)
		}
		if got := infos[0].Env["TORCHINDUCTOR_CACHE_DIR"]; got != c.want {
			t.Errorf("%q: TORCHINDUCTOR_CACHE_DIR recorded as %q, want %q", c.script, got, c.want)
		}
	}
}

package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeTorchDir is the probe tests' fake torch package.
func fakeTorchDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../triage/probe/testdata/faketorch")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// doctorEnv makes the environment doctor reads predictable: no knob, TORCH_LOGS, cache dir or terminal variable
// of the caller's shell, the caches in a fresh directory, then kv ("NAME=value") on top. It returns the python.
func doctorEnv(t *testing.T, kv ...string) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: doctor asks a Python interpreter")
	}
	names := []string{"TORCH_LOGS", "TRITON_CACHE_DIR", "TMUX", "STY", "SSH_CONNECTION", "SSH_TTY", "NO_COLOR",
		"COLORTERM", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"}
	for _, k := range knobs {
		names = append(names, k.name)
	}
	for _, n := range os.Environ() {
		if name, _, _ := strings.Cut(n, "="); strings.HasPrefix(name, "FAKETORCH_") {
			names = append(names, name)
		}
	}
	for _, n := range names {
		t.Setenv(n, "")
		os.Unsetenv(n)
	}
	t.Setenv("TERM", "xterm-256color")
	t.Setenv("TORCHINDUCTOR_CACHE_DIR", filepath.Join(t.TempDir(), "inductor"))
	for _, s := range kv {
		k, v, _ := strings.Cut(s, "=")
		t.Setenv(k, v)
	}
	return py
}

// runDoctor runs doctor for its JSON document, with a fresh run store unless o names one, and decodes the
// document. failed is Run's count of ✗ lines (the command's exit status is 1 when it is above 0).
func runDoctor(t *testing.T, o Options) (failed int, doc document, byID map[string]check) {
	t.Helper()
	if o.Store == "" {
		o.Store = filepath.Join(t.TempDir(), "runs")
	}
	o.Format = "json"
	var out bytes.Buffer
	failed, err := Run(context.Background(), &out, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%d ✗, not JSON: %v\n%s", failed, err, out.String())
	}
	byID = map[string]check{}
	for _, c := range doc.Checks {
		byID[c.ID] = c
	}
	return failed, doc, byID
}

// writeFile writes text to dir/name and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func wantCheck(t *testing.T, checks map[string]check, id string, st status, detail ...string) {
	t.Helper()
	c, ok := checks[id]
	if !ok {
		t.Errorf("no %s line", id)
		return
	}
	if c.Status != st {
		t.Errorf("%s is %s, want %s: %s (fix: %s)", id, c.Status, st, c.Detail, c.Fix)
	}
	for _, d := range detail {
		if !strings.Contains(c.Detail+" "+c.Fix, d) {
			t.Errorf("%s lacks %q: %s (fix: %s)", id, d, c.Detail, c.Fix)
		}
	}
	if st != statusOK && c.Fix == "" && id != "torch_logs_names" {
		t.Errorf("%s is %s without a fix", id, st)
	}
}

func TestDoctorFakeTorch(t *testing.T) {
	py := doctorEnv(t, "PYTHONPATH="+fakeTorchDir(t), "FAKETORCH_CUDA=1")
	failed, doc, checks := runDoctor(t, Options{Python: py})
	if failed != 0 {
		t.Errorf("%d ✗ where nothing is: %+v", failed, doc.Checks)
	}
	if doc.Schema != "torchtriage.doctor/v1" || doc.OS != runtime.GOOS || doc.Counts[statusFail] != 0 {
		t.Errorf("document: %+v", doc)
	}
	wantCheck(t, checks, "python", statusOK, " 3.")
	wantCheck(t, checks, "torch", statusOK, "9.9.0+fake (CUDA 12.8)", "faketorch")
	wantCheck(t, checks, "gpu", statusOK, "Fake GPU 9000 (capability 9.0) ×1")
	wantCheck(t, checks, "torch_logs_names", statusOK, "accepts 16 names (asked torch)")
	wantCheck(t, checks, "torchrun", statusOK)
	wantCheck(t, checks, "cpp_compiler", statusOK, "g++ (Inductor builds its CPU kernels with it: asked torch)")
	wantCheck(t, checks, "inductor_cache", statusOK, "(not created yet; from TORCHINDUCTOR_CACHE_DIR)")
	wantCheck(t, checks, "triton_cache", statusOK, "inductor/triton")
	wantCheck(t, checks, "knobs", statusOK, "none of the regression-prone")
	wantCheck(t, checks, "store", statusOK, "(created by the first run)")
	if _, ok := checks["torch_logs_env"]; ok {
		t.Error("no TORCH_LOGS is set: no line for it")
	}
	if f := doc.Facts; f.Probe == nil || f.LogNamesFrom != "torch" || len(f.LogNames) != 16 || len(f.Caches) != 2 {
		t.Errorf("facts: %+v", f)
	}
}

func TestDoctorWithoutTorch(t *testing.T) {
	py := doctorEnv(t, "PYTHONPATH="+t.TempDir())
	failed, doc, checks := runDoctor(t, Options{Python: py})
	if doc.Facts.Probe != nil && doc.Facts.Probe.Torch != nil {
		t.Skipf("the system python has a torch: %s", doc.Facts.Probe.Torch.File)
	}
	if failed != 1 || doc.Counts[statusFail] != 1 {
		t.Errorf("Run says %d ✗, the document %d; want one ✗ (torch)", failed, doc.Counts[statusFail])
	}
	wantCheck(t, checks, "torch", statusFail, "no torch for", "pip install torch")
	wantCheck(t, checks, "gpu", statusOK, "no torch to ask")
	if _, ok := checks["torch_logs_names"]; ok {
		t.Error("no torch: no TORCH_LOGS names line")
	}
}

func TestDoctorBrokenTorchAndMissingPython(t *testing.T) {
	py := doctorEnv(t, "PYTHONPATH="+fakeTorchDir(t), "FAKETORCH_IMPORT_ERROR=libcudart.so.12: cannot open shared object file")
	failed, _, checks := runDoctor(t, Options{Python: py})
	wantCheck(t, checks, "torch", statusFail, "import torch fails: OSError: libcudart.so.12")
	if failed != 1 {
		t.Errorf("%d ✗", failed)
	}
	failed, doc, checks := runDoctor(t, Options{Python: filepath.Join(t.TempDir(), "python9")})
	wantCheck(t, checks, "python", statusFail, "python9", "--python PATH")
	if failed != 1 || doc.Facts.Probe != nil || len(doc.Facts.Caches) != 0 {
		t.Errorf("%d ✗, facts %+v", failed, doc.Facts)
	}
}

// A torch that rejects names the presets use, and a TORCH_LOGS in the environment that it rejects.
func TestDoctorRejectedTorchLogsNames(t *testing.T) {
	py := doctorEnv(t, "PYTHONPATH="+fakeTorchDir(t), "FAKETORCH_LOG_NAMES=graph_breaks,recompiles,guards",
		"TORCH_LOGS=graph_breaks,+dynamo,no_such_log")
	failed, _, checks := runDoctor(t, Options{Python: py})
	wantCheck(t, checks, "torch_logs_names", statusWarn, "accepts 10 names", "rejects recompiles_verbose (preset recompiles, guards)",
		"perf_hints (preset cudagraphs)", "ddp_graphs (preset distributed)", "relaunched once")
	wantCheck(t, checks, "torch_logs_env", statusFail, `"graph_breaks,+dynamo,no_such_log"`, "rejects no_such_log,",
		"unset TORCH_LOGS")
	if failed != 1 {
		t.Errorf("%d ✗", failed)
	}
	t.Setenv("TORCH_LOGS", "graph_breaks,torch._dynamo")
	_, _, checks = runDoctor(t, Options{Python: py})
	wantCheck(t, checks, "torch_logs_env", statusOK, "is accepted")
}

func TestDoctorKnobsCachesAndLaunchers(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("uses /proc as a directory nobody can write")
	}
	bin := t.TempDir()
	writeFile(t, bin, "torchrun", "#!/opt/other-env/bin/python3\n")
	writeFile(t, bin, "srun", "#!/bin/sh\n")
	for _, f := range []string{"torchrun", "srun"} {
		if err := os.Chmod(filepath.Join(bin, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	py := doctorEnv(t, "PYTHONPATH="+fakeTorchDir(t), "TORCHINDUCTOR_FREEZING=1", "TORCH_COMPILE_DISABLE=0", "TORCHDYNAMO_DISABLE=1",
		"TORCHINDUCTOR_CACHE_DIR=/proc/torchtriage-doctor-test", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	_, _, checks := runDoctor(t, Options{Python: py})
	wantCheck(t, checks, "knob:TORCHINDUCTOR_FREEZING", statusWarn, "TORCHINDUCTOR_FREEZING=1: freezing", "unset TORCHINDUCTOR_FREEZING")
	wantCheck(t, checks, "knob:TORCH_COMPILE_DISABLE", statusWarn, "2.6 does for any non-empty value, even 0")
	wantCheck(t, checks, "knob:TORCHDYNAMO_DISABLE", statusWarn, "torch.compile does nothing", "unset TORCHDYNAMO_DISABLE")
	wantCheck(t, checks, "inductor_cache", statusFail, "/proc/torchtriage-doctor-test", "not writable", "export TORCHINDUCTOR_CACHE_DIR=")
	wantCheck(t, checks, "torchrun", statusWarn, "runs /opt/other-env/bin/python3, not", "first on PATH")
	wantCheck(t, checks, "srun", statusOK, filepath.Join(bin, "srun"))
	if _, ok := checks["knobs"]; ok {
		t.Error("knobs are set: no 'none set' line")
	}
}

func TestDoctorKnobTable(t *testing.T) {
	byName := map[string]knob{}
	for _, k := range knobs {
		byName[k.name] = k
	}
	cases := []struct {
		name, value string
		minor       int
		want        status
	}{
		{"TORCH_COMPILE_DISABLE", "1", 14, statusFail},
		{"TORCH_COMPILE_DISABLE", "0", 6, statusFail}, // 2.6: any non-empty value disables
		{"TORCH_COMPILE_DISABLE", "0", 14, statusWarn},
		{"TORCH_COMPILE_DISABLE", "", -1, statusOK},
		{"TORCHINDUCTOR_FORCE_DISABLE_CACHES", "true", 14, statusWarn}, // a Config bool: any string but 0 is on
		{"TORCHINDUCTOR_FORCE_DISABLE_CACHES", "true", 6, statusOK},    // 2.6: only "1"
		{"TORCHINDUCTOR_FORCE_DISABLE_CACHES", "0", 14, statusOK},
		{"TORCH_COMPILE_FORCE_DISABLE_CACHES", "1", 6, statusOK}, // 2.6 reads only the first name
		{"TORCH_COMPILE_FORCE_DISABLE_CACHES", "1", 14, statusWarn},
		{"TORCHINDUCTOR_FX_GRAPH_CACHE", "0", 14, statusWarn},
		{"TORCHINDUCTOR_FX_GRAPH_CACHE", "1", 14, statusOK},
		{"TORCHINDUCTOR_AUTOGRAD_CACHE", "0", -1, statusWarn},
		{"TORCHINDUCTOR_AUTOGRAD_CACHE", "1", 6, statusOK},
		{"TORCHINDUCTOR_MAX_AUTOTUNE", "1", 14, statusWarn},
		{"TORCHINDUCTOR_MAX_AUTOTUNE", "0", 14, statusOK},
		{"TORCHINDUCTOR_COMPILE_THREADS", "1", 14, statusWarn},
		{"TORCHINDUCTOR_COMPILE_THREADS", "8", 14, statusOK},
		{"TORCHINDUCTOR_COMPILE_THREADS", "many", 14, statusWarn},
		{"TORCHINDUCTOR_SHAPE_PADDING", "0", 14, statusWarn},
		{"TORCHINDUCTOR_GRAPH_PARTITION", "0", 14, statusWarn},
		{"TORCHINDUCTOR_GRAPH_PARTITION", "0", 6, statusOK}, // no such option in 2.6
		{"TORCH_COMPILE_CACHE_KEY_TAG", "exp1", 14, statusWarn},
		{"TORCH_COMPILE_JOB_ID", "job7", 14, statusOK},
	}
	for _, c := range cases {
		k, ok := byName[c.name]
		if !ok {
			t.Errorf("no knob %s", c.name)
			continue
		}
		st, detail, fix := k.check(c.value, c.minor)
		if st != c.want || detail == "" || (st != statusOK && fix == "") {
			t.Errorf("%s=%q under 2.%d: %s %q (fix %q), want %s", c.name, c.value, c.minor, st, detail, fix, c.want)
		}
	}
}

// Inductor builds CPU kernels with a C++ compiler: where torch's own search finds none, doctor says so (a ⚠ with
// its fix) instead of a line of ✓ that ends in a CppCompileError at the first compile.
func TestDoctorWithoutCppCompiler(t *testing.T) {
	py := doctorEnv(t, "PYTHONPATH="+fakeTorchDir(t), "FAKETORCH_CXX=")
	_, _, checks := runDoctor(t, Options{Python: py})
	wantCheck(t, checks, "cpp_compiler", statusWarn, "none works (asked torch: InvalidCxxCompiler: No working C++ compiler found",
		`backend="inductor" cannot build CPU code`)
	// CXX named one that does not work: the fix is that setting, not installing g++ (which was there)
	t.Setenv("CXX", "/nonexistent/g++")
	_, _, checks = runDoctor(t, Options{Python: py})
	if fix := checks["cpp_compiler"].Fix; !strings.Contains(fix, "CXX=/nonexistent/g++ is tried first") {
		t.Errorf("fix %q", fix)
	}
}

// A cache dir or run store that is a regular file is no directory anything can be created in: doctor said "✓
// inductor cache … (not created yet)" and "✓ run store … (created by the first run)" of one, and every compile
// then died of FileExistsError and every run of "mkdir …: not a directory" (an exploratory run on real 2.14.1).
func TestDoctorCacheDirAndStoreThatAreFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	writeFile(t, dir, "afile", "x\n")
	py := doctorEnv(t, "PYTHONPATH="+fakeTorchDir(t), "TORCHINDUCTOR_CACHE_DIR="+file)
	_, _, checks := runDoctor(t, Options{Python: py, Store: filepath.Join(file, "runs")})
	wantCheck(t, checks, "inductor_cache", statusFail, "is a file, not a directory")
	wantCheck(t, checks, "store", statusFail, "is a file, not a directory")
}

// A TORCH_LOGS that `import torch` fails on in a way other than an unknown name: empty (torch's parser returns a
// plain dict and init fails on it) and a dotted name of no module ("foo.bar": ModuleNotFoundError). doctor said
// "is accepted" of both (an exploratory run on real 2.6 and 2.14.1). And run strips an inherited TORCH_LOGS, so
// the check does not claim the eager preset inherits it.
func TestDoctorTorchLogsImportFailsOn(t *testing.T) {
	for _, c := range []struct{ value, want string }{{"", "`import torch` fails"}, {"foo.bar", "No module named 'foo'"}} {
		py := doctorEnv(t, "PYTHONPATH="+fakeTorchDir(t), "TORCH_LOGS="+c.value)
		_, _, checks := runDoctor(t, Options{Python: py})
		wantCheck(t, checks, "torch_logs_env", statusFail, c.want, "unset TORCH_LOGS")
		if strings.Contains(checks["torch_logs_env"].Detail, "eager preset sets no TORCH_LOGS") {
			t.Errorf("%q: %s", c.value, checks["torch_logs_env"].Detail)
		}
	}
}

// doctor leaves nothing behind: importing torch's cpp_builder creates Inductor's cache dir (real 2.14.1), which
// doctor did in the user's TORCHINDUCTOR_CACHE_DIR, then reported as existing.
func TestDoctorCreatesNoCacheDir(t *testing.T) {
	fresh := filepath.Join(t.TempDir(), "fresh")
	py := doctorEnv(t, "PYTHONPATH="+fakeTorchDir(t), "TORCHINDUCTOR_CACHE_DIR="+fresh)
	_, _, checks := runDoctor(t, Options{Python: py})
	wantCheck(t, checks, "inductor_cache", statusOK, "not created yet")
	if _, err := os.Stat(fresh); err == nil {
		t.Errorf("doctor created %s", fresh)
	}
}

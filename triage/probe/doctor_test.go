package probe

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// doctor runs the doctor script with the system python and the fake torch on PYTHONPATH (pythonPath "" = no torch).
func doctor(t *testing.T, pythonPath string, extra ...string) Facts {
	t.Helper()
	env := append(cleanEnv(), "PYTHONPATH="+pythonPath)
	f, err := Doctor(context.Background(), python3(t), append(env, extra...))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestDoctorWithFakeTorch(t *testing.T) {
	wd, _ := os.Getwd()
	cache := filepath.Join(wd, "rel", "inductor") // torch makes a relative TORCHINDUCTOR_CACHE_DIR absolute
	f := doctor(t, fakeTorch(t), "FAKETORCH_CUDA=1", "TORCHINDUCTOR_CACHE_DIR=rel/inductor")
	if !strings.HasPrefix(f.PythonVersion, "3.") || f.Python == "" || f.Prefix == "" {
		t.Errorf("python facts: %+v", f)
	}
	tf := f.Torch
	if tf == nil || f.TorchMissing || f.TorchError != "" {
		t.Fatalf("torch not found: %+v", f)
	}
	if tf.Version != "9.9.0+fake" || tf.CUDA != "12.8" || !tf.CUDAAvailable || tf.DeviceCount != 1 ||
		tf.GPU != "Fake GPU 9000" || tf.Capability != "9.0" || !tf.Distributed || !strings.HasSuffix(tf.File, "__init__.py") {
		t.Errorf("torch facts: %+v", tf)
	}
	if !f.DistributedRun {
		t.Error("torch.distributed.run is in the fake torch")
	}
	want := []string{"all", "aot", "cudagraphs", "ddp_graphs", "distributed", "dynamic", "dynamo", "graph",
		"graph_breaks", "guards", "inductor", "perf_hints", "recompiles", "recompiles_verbose", "torch", "verbose_guards"}
	if !slices.Equal(f.LogNames, want) {
		t.Errorf("log names %v, want %v", f.LogNames, want)
	}
	if f.TorchLogs != nil || f.TorchLogsError != "" {
		t.Errorf("TORCH_LOGS was not set: %+v", f)
	}
	if f.InductorCacheDir != cache || !f.InductorCacheDirEnv {
		t.Errorf("inductor cache %q (env %v), want %q", f.InductorCacheDir, f.InductorCacheDirEnv, cache)
	}
	if f.TritonCacheDir != filepath.Join(cache, "triton") || f.TritonCacheDirEnv {
		t.Errorf("triton cache %q", f.TritonCacheDir)
	}
}

// torch sets TORCHINDUCTOR_CACHE_DIR itself when one of its modules calls cache_dir() (2.14.1: importing
// torch._inductor.cpp_builder, which doctor asks for the C++ compiler): the variable is the user's only if it was
// set before torch ran (doctor said "from TORCHINDUCTOR_CACHE_DIR" of torch's own default).
func TestDoctorCacheDirNotSetByTheUser(t *testing.T) {
	f := doctor(t, fakeTorch(t))
	if f.Torch == nil || f.CppCompiler == "" {
		t.Fatalf("the fake torch's C++ compiler was not asked: %+v", f)
	}
	if f.InductorCacheDirEnv || !strings.Contains(filepath.Base(f.InductorCacheDir), "torchinductor_") {
		t.Errorf("inductor cache %q, from the environment %v: want torch's default, not the user's", f.InductorCacheDir, f.InductorCacheDirEnv)
	}
}

func TestDoctorWithoutTorch(t *testing.T) {
	f := doctor(t, t.TempDir(), "TRITON_CACHE_DIR=/somewhere/triton")
	if f.Torch != nil && !strings.Contains(f.Torch.File, "faketorch") {
		t.Skipf("the system python has a torch of its own: %s", f.Torch.File)
	}
	if !f.TorchMissing || f.Torch != nil || f.TorchError != "" || len(f.LogNames) != 0 {
		t.Errorf("want torch missing: %+v", f)
	}
	if !strings.Contains(filepath.Base(f.InductorCacheDir), "torchinductor_") || f.InductorCacheDirEnv {
		t.Errorf("default inductor cache %q", f.InductorCacheDir)
	}
	if f.TritonCacheDir != "/somewhere/triton" || !f.TritonCacheDirEnv {
		t.Errorf("triton cache %q", f.TritonCacheDir)
	}
}

func TestDoctorBrokenTorch(t *testing.T) {
	f := doctor(t, fakeTorch(t), "FAKETORCH_IMPORT_ERROR=libcudart.so.12: cannot open shared object file")
	if f.Torch != nil || f.TorchMissing || f.TorchError != "OSError: libcudart.so.12: cannot open shared object file" {
		t.Errorf("want the import error in one line: %+v", f)
	}
}

// TORCH_LOGS with a name torch rejects fails `import torch`; doctor still imports it and hands back torch's message.
func TestDoctorRejectedTorchLogs(t *testing.T) {
	f := doctor(t, fakeTorch(t), "TORCH_LOGS=+dynamo,bogus_name", "FAKETORCH_LOG_NAMES=graph_breaks")
	if f.Torch == nil {
		t.Fatalf("torch must import with TORCH_LOGS out of the way: %+v", f)
	}
	if f.TorchLogs == nil || *f.TorchLogs != "+dynamo,bogus_name" {
		t.Errorf("TORCH_LOGS not reported: %v", f.TorchLogs)
	}
	if !strings.Contains(f.TorchLogsError, "Invalid log settings: +dynamo,bogus_name") || !strings.Contains(f.TorchLogsError, "Valid settings:") {
		t.Errorf("torch's message: %q", f.TorchLogsError)
	}
	if slices.Contains(f.LogNames, "recompiles") || !slices.Contains(f.LogNames, "graph_breaks") {
		t.Errorf("FAKETORCH_LOG_NAMES not honoured: %v", f.LogNames)
	}
	ok := doctor(t, fakeTorch(t), "TORCH_LOGS=graph_breaks,torch._dynamo.config") // a module there: imported, as torch does
	if ok.TorchLogs == nil || ok.TorchLogsError != "" || ok.TorchLogsCheckError != "" {
		t.Errorf("accepted TORCH_LOGS: %+v", ok)
	}
}

func TestDoctorWithoutLogRegistry(t *testing.T) {
	f := doctor(t, fakeTorch(t), "FAKETORCH_NO_LOG_REGISTRY=1")
	if f.Torch == nil || len(f.LogNames) != 0 || !strings.HasPrefix(f.LogNamesError, "AttributeError") {
		t.Errorf("want the registry's absence as an error: names %v, error %q", f.LogNames, f.LogNamesError)
	}
}

func TestDoctorErrors(t *testing.T) {
	if _, err := Doctor(context.Background(), filepath.Join(t.TempDir(), "no-python"), nil); err == nil {
		t.Error("a missing interpreter must be an error")
	}
	fake := filepath.Join(t.TempDir(), "python")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 'Fatal Python error: init_fs_encoding' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Doctor(context.Background(), fake, nil)
	if err == nil || !strings.Contains(err.Error(), "Fatal Python error: init_fs_encoding") {
		t.Errorf("want the interpreter's stderr in the error: %v", err)
	}
	hangs := filepath.Join(t.TempDir(), "python")
	if err := os.WriteFile(hangs, []byte("#!/bin/sh\nsleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := Doctor(ctx, hangs, nil); err == nil || time.Since(start) > 10*time.Second {
		t.Errorf("a hanging interpreter: %v after %v", err, time.Since(start))
	}
}

package probe

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

//go:embed doctor.py
var doctorScript string

// Facts is what doctor.py found out about a Python interpreter: the python itself, its torch (nil when torch
// could not be imported), the TORCH_LOGS names that torch accepts and where its compile caches would go.
type Facts struct {
	Python        string `json:"python"` // sys.executable
	PythonVersion string `json:"python_version"`
	Prefix        string `json:"prefix"`
	Venv          bool   `json:"venv"`

	Torch        *TorchFacts `json:"torch,omitempty"`
	TorchMissing bool        `json:"torch_missing,omitempty"` // no torch package on sys.path
	TorchError   string      `json:"torch_error,omitempty"`   // `import torch` raised: type and first line

	// LogNames are the TORCH_LOGS names torch's registry holds ("all", log aliases, artifact names), sorted
	// after "all"; LogNamesError says why they could not be read.
	LogNames      []string `json:"log_names,omitempty"`
	LogNamesError string   `json:"log_names_error,omitempty"`
	// TorchLogs is the environment's TORCH_LOGS (nil when unset); TorchLogsError is torch's whole message
	// rejecting it, TorchLogsCheckError why torch's parser could not be asked.
	TorchLogs           *string `json:"torch_logs,omitempty"`
	TorchLogsError      string  `json:"torch_logs_error,omitempty"`
	TorchLogsCheckError string  `json:"torch_logs_check_error,omitempty"`

	DistributedRun bool `json:"distributed_run"` // torch.distributed.run is importable (torchrun's module)

	// CppCompiler is the C++ compiler Inductor builds CPU kernels with, as torch's own search finds it
	// (cpp_builder.get_cpp_compiler); CppCompilerError what that search raised (InvalidCxxCompiler: none works).
	CppCompiler      string `json:"cpp_compiler,omitempty"`
	CppCompilerError string `json:"cpp_compiler_error,omitempty"`

	InductorCacheDir    string `json:"inductor_cache_dir"`
	InductorCacheDirEnv bool   `json:"inductor_cache_dir_env"` // from TORCHINDUCTOR_CACHE_DIR
	TritonCacheDir      string `json:"triton_cache_dir"`
	TritonCacheDirEnv   bool   `json:"triton_cache_dir_env"` // from TRITON_CACHE_DIR
}

// TorchFacts is the imported torch: version, build and what it sees of the GPUs.
type TorchFacts struct {
	Version       string `json:"version"`
	File          string `json:"file"`
	CUDA          string `json:"cuda"` // torch.version.cuda: the CUDA it was built with, "" for a CPU build
	HIP           string `json:"hip"`
	CUDAAvailable bool   `json:"cuda_available"`
	DeviceCount   int    `json:"device_count,omitempty"`
	GPU           string `json:"gpu,omitempty"`        // device 0's name
	Capability    string `json:"capability,omitempty"` // device 0's compute capability, "9.0"
	CUDAError     string `json:"cuda_error,omitempty"`
	Distributed   bool   `json:"distributed"` // torch.distributed.is_available()
}

// Doctor runs doctor.py once with python (a name on PATH or a path) in env (nil: this process's environment)
// and returns what it found. An error means python could not be started or wrote no facts (its stderr's last
// lines are in the message).
func Doctor(ctx context.Context, python string, env []string) (Facts, error) {
	dir, err := os.MkdirTemp("", "torchtriage-doctor-")
	if err != nil {
		return Facts{}, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "facts.json")
	cmd := exec.CommandContext(ctx, python, "-c", doctorScript, out)
	cmd.Env = env
	cmd.WaitDelay = 2 * time.Second // a child left holding stderr must not outlive the context
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	runErr := cmd.Run()
	data, err := os.ReadFile(out)
	if err != nil {
		if runErr == nil {
			runErr = errors.New("it wrote no facts")
		}
		return Facts{}, fmt.Errorf("%s: %w%s", python, runErr, tail(stderr.String(), 3))
	}
	var f Facts
	if err := json.Unmarshal(data, &f); err != nil {
		return Facts{}, fmt.Errorf("%s: malformed facts: %w", python, err)
	}
	return f, nil
}

// tail is the last n non-empty lines of s, as "; line; line" (or "").
func tail(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(lines) == 0 {
		return ""
	}
	return ": " + strings.Join(lines, "; ")
}

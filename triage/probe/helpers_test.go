package probe

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// python3 returns the system interpreter or skips the test.
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: probe tests need a Python interpreter")
	}
	return p
}

func fakeTorch(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "faketorch"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// cleanEnv is os.Environ without anything that would steer Python or the
// probe, so tests do not depend on the caller's shell.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "PYTHON"), strings.HasPrefix(name, "TORCH"),
			strings.HasPrefix(name, "NCCL_"), strings.HasPrefix(name, "CUDA_"),
			strings.HasPrefix(name, "PYTORCH_"), strings.HasPrefix(name, "FAKETORCH_"),
			name == "RANK", name == "LOCAL_RANK", name == "WORLD_SIZE":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "PYTHONDONTWRITEBYTECODE=1")
}

// installProbe sets PYTHONPATH to pythonPath (what the user had) and installs
// the probe into a fresh run dir; it returns the run dir and the full child env.
func installProbe(t *testing.T, pythonPath string, extra ...string) (string, []string) {
	t.Helper()
	runDir := t.TempDir()
	t.Setenv("PYTHONPATH", pythonPath)
	add, err := Install(runDir)
	if err != nil {
		t.Fatal(err)
	}
	env := append(cleanEnv(), add...)
	return runDir, append(env, extra...)
}

type result struct {
	stdout, stderr string
	code           int
}

func runPython(t *testing.T, env []string, script string, args ...string) result {
	t.Helper()
	path := filepath.Join(t.TempDir(), "repro.py")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return runFile(t, env, path, args...)
}

func runFile(t *testing.T, env []string, path string, args ...string) result {
	t.Helper()
	cmd := exec.Command(python3(t), append([]string{path}, args...)...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("run %s: %v", path, err)
	}
	return result{out.String(), errb.String(), code}
}

func probeFiles(t *testing.T, runDir string) []string {
	t.Helper()
	entries, err := os.ReadDir(Dir(runDir))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != "sitecustomize.py" {
			names = append(names, e.Name())
		}
	}
	return names
}

func itoa(n int) string { return strconv.Itoa(n) }

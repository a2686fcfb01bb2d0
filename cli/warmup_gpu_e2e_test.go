package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
)

// On a CUDA GPU (TORCHTRIAGE_GPU_E2E=1, python3 with a CUDA torch 2.11+ on PATH): a mode="reduce-overhead" training
// loop whose batch shrinks at step 30 (testdata/gpu-e2e/repro/cg_new_batch_after_warmup.py) fails check
// --no-compile-after-warmup --warmup-steps 5 with a CUDA-graph recording at step 30 (the probe's
// CUDAGRAPH_RECORDING trigger, stamped with its step), and --max-cudagraph-rerecords 0 counts that graph's
// recordings after warm-up; with full batches (SHORT=0) both pass. Not yet run on a GPU: it skips without one.
func TestReduceOverheadAfterWarmupGPU(t *testing.T) {
	if os.Getenv("TORCHTRIAGE_GPU_E2E") != "1" {
		t.Skip("no GPU run asked: set TORCHTRIAGE_GPU_E2E=1 on a machine with a CUDA GPU and torch 2.11+")
	}
	if out, err := exec.Command("python3", "-c", "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)").CombinedOutput(); err != nil {
		t.Skipf("python3 has no CUDA torch: %v %s", err, out)
	}
	bin := binary(t)
	dir := t.TempDir()
	src, err := os.ReadFile(testlogs.Path(t, "gpu-e2e", "repro", "cg_new_batch_after_warmup.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cg_new_batch_after_warmup.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rules []string
		env   string
		exit  int
		want  []string
	}{
		{[]string{"--no-compile-after-warmup"}, "SHORT=1", 1, []string{"at step 30", "CUDA-graph recording"}},
		{[]string{"--max-cudagraph-rerecords", "0"}, "SHORT=1", 1, []string{"after warm-up (5 steps, by SGD.step()) > 0"}},
		{[]string{"--no-compile-after-warmup", "--max-cudagraph-rerecords", "0"}, "SHORT=0", 0, []string{"steady state: after warm-up (5 steps, by SGD.step()): nothing compiled"}},
	} {
		args := append([]string{"check", "--preset", "cudagraphs", "--warmup-steps", "5"}, c.rules...)
		args = append(args, "--", "env", c.env, "python3", "cg_new_batch_after_warmup.py")
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "TORCHINDUCTOR_CACHE_DIR="+filepath.Join(dir, ".inductor-cache"))
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if code != c.exit || !strings.Contains(string(out), w) {
				t.Errorf("%v %s: exit %d, want %d with %q\n%s", c.rules, c.env, code, c.exit, w, out)
				break
			}
		}
	}
}

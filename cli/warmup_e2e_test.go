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

// On real PyTorch (TORCHTRIAGE_REALTORCH, TORCHTRIAGE_REALTORCH_RUN: a realtorch root and its run.sh), check
// --no-compile-after-warmup --warmup-steps 5 launches the recorded scripts of testdata/recorded/after-warmup: the
// loop whose batch shrinks at step 30 fails (1) with the recompile at step 30 and its guard, the loop with full
// batches passes (0), the serving loop fails at request 20 by its --step-marker.
func TestNoCompileAfterWarmupRealTorch(t *testing.T) {
	root, runSh, dir := realTorch(t)
	bin := binary(t)
	for _, name := range []string{"train_short_batch.py", "serve_long_request.py"} {
		src, err := os.ReadFile(testlogs.Path(t, "recorded", "after-warmup", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		flags []string
		cmd   []string
		exit  int
		want  string
	}{
		{nil, []string{"python3", "train_short_batch.py"}, 1, "1 recompile at step 30: size of x changed 8 → 5"},
		{nil, []string{"env", "SHORT=0", "python3", "train_short_batch.py"}, 0, "PASS"},
		{[]string{"--step-marker", `serving request (\d+)`}, []string{"python3", "serve_long_request.py"}, 1, "1 recompile at step 20: size of tokens dim 1 changed 8 → 12"},
	} {
		args := append([]string{"check", "--no-compile-after-warmup", "--warmup-steps", "5"}, c.flags...)
		args = append(append(args, "--", runSh), c.cmd...)
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "REALTORCH="+root, "TORCHINDUCTOR_CACHE_DIR="+filepath.Join(dir, ".inductor-cache"))
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.exit || !strings.Contains(string(out), c.want) {
			t.Errorf("%v: exit %d, want %d with %q\n%s", c.cmd, code, c.exit, c.want, out)
		}
	}
}

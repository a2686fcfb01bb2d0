package probe

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProbeWithRealTorch runs the probe under a real PyTorch root built by
// /work/shared/realtorch/setup.sh. It needs TORCHTRIAGE_REALTORCH=<root> and
// TORCHTRIAGE_REALTORCH_RUN=<path to run.sh> (root privileges: run.sh chroots);
// it is skipped otherwise.
func TestProbeWithRealTorch(t *testing.T) {
	root, runner := os.Getenv("TORCHTRIAGE_REALTORCH"), os.Getenv("TORCHTRIAGE_REALTORCH_RUN")
	if root == "" || runner == "" {
		t.Skip("set TORCHTRIAGE_REALTORCH=<realtorch root> and TORCHTRIAGE_REALTORCH_RUN=<run.sh> to run the probe under real PyTorch")
	}
	runDir := t.TempDir()
	t.Setenv("PYTHONPATH", "")
	add, err := Install(runDir)
	if err != nil {
		t.Fatal(err)
	}
	script := "import torch\n" +
		"def f(x):\n    print('side effect')\n    return x + 1\n" +
		"torch.compile(f, backend='eager')(torch.ones(4))\n" +
		"opt = torch.optim.Adam([torch.nn.Parameter(torch.ones(1))], lr=0.1)\n" +
		"sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 1.0)\n"
	if err := os.WriteFile(filepath.Join(runDir, "repro.py"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(runner, "python3", "repro.py")
	cmd.Dir = runDir // run.sh bind-mounts the current directory into the root
	cmd.Env = append(append(cleanEnv(), add...), "REALTORCH="+root, "RANK=0", "WORLD_SIZE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("real torch run failed: %v\n%s", err, out)
	}
	infos, errs := ReadDir(runDir)
	if len(errs) != 0 || len(infos) != 1 {
		t.Fatalf("ReadDir: %+v %v", infos, errs)
	}
	in := infos[0]
	if !strings.HasPrefix(in.Torch, "2.") || len(in.Counters["graph_break"]) == 0 || len(in.CompileTimes) == 0 {
		t.Errorf("real torch info incomplete: %+v", in)
	}
	if _, ok := in.Config["dynamo.cache_size_limit"]; !ok {
		t.Errorf("config lacks dynamo.cache_size_limit: %v", in.Config)
	}
	// the optimizer scan: the scheduler's wrapper, as the real lr_scheduler.py sets it
	if o := in.Optim; o == nil || o.Scan != "complete" || len(o.Optimizers) != 1 || o.Optimizers[0].Class != "Adam" ||
		o.Optimizers[0].Step != "lr_scheduler" {
		t.Errorf("optimizer scan: %+v", o)
	}
	// the start file (torch imported) and the compile state (callbacks: 2.6 calls them with no argument)
	starts, _ := ReadStarts(runDir)
	states, _ := ReadCompileStates(runDir)
	if len(starts) != 1 || starts[0].Torch != in.Torch || len(states) != 1 || states[0].Phase != "idle" || states[0].Compiles < 1 {
		t.Errorf("start %+v, compile states %+v", starts, states)
	}
}

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The end-to-end test drives the real binary in tmux: `torchtriage demo`, relaunch with another preset, filter,
// open the detail view, quit. It skips without tmux. With TT_E2E_SELF=1 it uses this test binary instead of
// building one (TestMain runs the command line then, as main.go does).

func tmuxOrSkip(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
}

// binary builds torchtriage, or returns the test binary with TT_E2E_SELF=1.
func binary(t *testing.T) string {
	t.Helper()
	if os.Getenv("TT_E2E_SELF") == "1" {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		return exe
	}
	bin := filepath.Join(t.TempDir(), "torchtriage")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/torchtriage/torchtriage").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

type tmuxSession struct {
	t        *testing.T
	name     string
	dir      string        // where it runs (startReal)
	deadline time.Duration // per wait
}

func startTmux(t *testing.T, dir string, w, h int, command string) *tmuxSession {
	t.Helper()
	s := &tmuxSession{t: t, name: fmt.Sprintf("tt-e2e-%d", os.Getpid()), deadline: 40 * time.Second}
	cmd := exec.Command("tmux", "-f", "/dev/null", "new-session", "-d", "-s", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h),
		"-c", dir, command+"; echo TT-EXIT=$?; sleep 30")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "kill-session", "-t", s.name).Run() })
	return s
}

func (s *tmuxSession) keys(keys ...string) {
	s.t.Helper()
	args := append([]string{"send-keys", "-t", s.name}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		s.t.Fatalf("tmux send-keys %v: %v\n%s", keys, err, out)
	}
}

func (s *tmuxSession) capture() string {
	out, _ := exec.Command("tmux", "capture-pane", "-p", "-t", s.name).Output()
	return string(out)
}

// wait polls the pane until it contains every string.
func (s *tmuxSession) wait(what string, wants ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(s.deadline)
	for {
		screen := s.capture()
		ok := true
		for _, w := range wants {
			ok = ok && strings.Contains(screen, w)
		}
		if ok {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for %s (%q); pane:\n%s", what, wants, screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestEndToEndDemoInTmux(t *testing.T) {
	tmuxOrSkip(t)
	bin := binary(t)
	dir := t.TempDir()
	env := ""
	if os.Getenv("TT_E2E_SELF") == "1" {
		env = "TT_CLI_SELF=1 "
	}
	s := startTmux(t, dir, 120, 32, env+bin+" demo --speed 20")
	s.wait("the demo's first run", "run 1 · breaks", "DEMO · recording", "exited 0", "print()")

	// relaunch with another preset: p, down to "recompiles", enter, r
	s.keys("p")
	s.wait("the preset picker", "Preset · applies on the next relaunch")
	s.keys("Down", "Enter")
	s.wait("the chosen preset", "preset ▸ recompiles", "changed: r relaunches")
	s.keys("r")
	s.wait("the relaunch", "run 2 · recompiles (", "recompiles_verbose", "exited 0")

	// filter the breaks list (this recording has the .item() break)
	s.keys("/", "i", "t", "e", "m", "Enter")
	s.wait("the filter", "/item 1 of")

	// the detail view
	s.keys("Enter")
	s.wait("the detail view", "Detail · .item()", "Evidence")
	s.keys("Escape")
	s.wait("the main screen", "preset ▸ recompiles")

	// quit
	s.keys("q")
	screen := s.wait("the exit", "TT-EXIT=0")
	if !strings.Contains(screen, "this session stored 2 runs in") {
		t.Errorf("no goodbye line after the TUI:\n%s", screen)
	}
	// the demo keeps its runs out of ./.torchtriage: a temporary store, named at exit, with runs marked demo
	if _, err := os.Stat(filepath.Join(dir, ".torchtriage")); err == nil {
		t.Errorf("demo wrote into ./.torchtriage")
	}
	m := regexp.MustCompile(`torchtriage log --store (\S+)`).FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("demo does not say where its store is:\n%s", screen)
	}
	t.Cleanup(func() { os.RemoveAll(m[1]) })
	runs, _ := filepath.Glob(filepath.Join(m[1], "*", "meta.json"))
	if len(runs) != 2 {
		t.Fatalf("store %s has %d runs, want 2: %v", m[1], len(runs), runs)
	}
	for _, r := range runs {
		if data, _ := os.ReadFile(r); !strings.Contains(string(data), `"demo": "`) {
			t.Errorf("%s is not marked demo:\n%s", r, data)
		}
	}
}

// TestEndToEndRealTwoRanks is the same session on a real 2-rank torchrun repro, when a realtorch root (made by
// shared/realtorch/setup.sh) is named by TORCHTRIAGE_REALTORCH and its run.sh by TORCHTRIAGE_REALTORCH_RUN.
func TestEndToEndRealTwoRanks(t *testing.T) {
	src, err := os.ReadFile(fx("repro/r05_dist_c10d.py"))
	if err != nil {
		t.Fatal(err)
	}
	s := startReal(t, "r05_dist_c10d.py", src, "run --timeout 8m",
		"torchrun --nproc-per-node 2 --master-port 29641 r05_dist_c10d.py")
	s.deadline = 9 * time.Minute
	s.wait("the 2-rank run", "run 1 · breaks", "exited 0", "print()", "disagree")
	s.keys("p")
	s.wait("the preset picker", "Preset · applies on the next relaunch")
	s.keys("Down", "Enter", "r")
	s.wait("the relaunch", "run 2 · recompiles (", "exited 0")
	s.keys("/", "s", "t", "e", "p", "Enter")
	s.wait("the filter", "/step")
	s.keys("Tab", "Enter")
	s.wait("the detail view", "Detail · step", "Evidence")
	s.keys("Escape")
	s.wait("the main screen", "preset ▸ recompiles")
	s.keys("q")
	s.wait("the exit", "TT-EXIT=0")
}

// realTorch skips without a realtorch root (made by shared/realtorch/setup.sh, named by TORCHTRIAGE_REALTORCH, its
// run.sh by TORCHTRIAGE_REALTORCH_RUN); else it returns them and a temporary directory run.sh may bind-mount (it is
// unmounted after the test).
func realTorch(t *testing.T) (root, runSh, dir string) {
	t.Helper()
	root, runSh = os.Getenv("TORCHTRIAGE_REALTORCH"), os.Getenv("TORCHTRIAGE_REALTORCH_RUN")
	if root == "" || runSh == "" {
		t.Skip("no real PyTorch: set TORCHTRIAGE_REALTORCH (a realtorch root) and TORCHTRIAGE_REALTORCH_RUN (its run.sh)")
	}
	dir = t.TempDir()
	unmountAfter(t, root, dir)
	return root, runSh, dir
}

// startReal skips without a realtorch root (made by shared/realtorch/setup.sh, named by TORCHTRIAGE_REALTORCH,
// its run.sh by TORCHTRIAGE_REALTORCH_RUN); else it writes the repro into a temporary directory and starts
// `torchtriage <flags> -- run.sh <command>` there in tmux at 120×32. The run gets an inductor cache of its own:
// an entry another run left half-written in the shared one fails the compile.
func startReal(t *testing.T, name string, src []byte, flags, command string) *tmuxSession {
	tmuxOrSkip(t)
	root, runSh, dir := realTorch(t)
	bin := binary(t)
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		t.Fatal(err)
	}
	env := "REALTORCH=" + root + " TORCHINDUCTOR_CACHE_DIR=" + filepath.Join(dir, ".inductor-cache") + " "
	if os.Getenv("TT_E2E_SELF") == "1" {
		env += "TT_CLI_SELF=1 "
	}
	s := startTmux(t, dir, 120, 32, env+bin+" "+flags+" -- "+runSh+" "+command)
	s.dir = dir
	return s
}

// unmountAfter undoes, before the test's temporary directory is removed, the bind mount of dir that the realtorch
// run.sh makes inside the root (else removing dir fails: device or resource busy).
func unmountAfter(t *testing.T, root, dir string) {
	t.Cleanup(func() {
		in := filepath.Join(root, dir)
		_ = exec.Command("umount", in).Run()
		_ = os.Remove(in)
	})
}

// slowCompile is a 2-rank repro in which rank 1 compiles a deep model (caches off, one compile thread) while rank
// 0 waits at the barrier: a compiling rank, not a hung one.
const slowCompile = `import os
os.environ["TORCHINDUCTOR_FORCE_DISABLE_CACHES"] = "1"
os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
layers = []
for _ in range(32):
    layers += [torch.nn.Linear(64, 64), torch.nn.GELU(), torch.nn.LayerNorm(64)]
model = torch.nn.Sequential(*layers)
if dist.get_rank() == 1:
    model = torch.compile(model)
model(torch.randn(8, 64)).sum().backward()
dist.barrier()
print("done", flush=True)
dist.destroy_process_group()
`

// TestEndToEndRealCompilingRankIsShownLive runs a real 2-rank repro whose rank 1 compiles for a while without
// output: the TUI shows which rank compiles what while it does (status line, then the stall banner after
// --stall), from the probe's compile-state file, rather than one undifferentiated stall.
func TestEndToEndRealCompilingRankIsShownLive(t *testing.T) {
	s := startReal(t, "slow_compile.py", []byte(slowCompile), "run --stall 4s --timeout 8m",
		"torchrun --nproc-per-node 2 --master-port 29661 slow_compile.py")
	s.deadline = 5 * time.Minute
	s.wait("the real torch version from the probe's start file", "slow_compile.py", "torch 2.")
	s.wait("rank 1 compiling while rank 0 waits", "rank 1 compiling `", "others waiting")
	states, _ := filepath.Glob(filepath.Join(s.dir, ".torchtriage", "runs", "*", "probe", "compile-rank1-*.json"))
	if len(states) == 0 {
		t.Fatal("the probe wrote no compile-state file for rank 1")
	}
	s.wait("the stall banner with what compiles", "compiling `", "· no output for")
	s.wait("the end of the run", "exited 0")
	if screen := s.capture(); strings.Contains(screen, "compiling `") {
		t.Errorf("a finished run still shows a compiling rank:\n%s", screen)
	}
	s.keys("q")
	s.wait("the exit", "TT-EXIT=0")
}

func TestEndToEndRefusesAPipe(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test")
	}
	code, out := demoCmd(nil)
	if code != 2 || !strings.Contains(out, "not a terminal") || !strings.Contains(out, "torchtriage report") {
		t.Fatalf("demo into a pipe: exit %d, %q", code, out)
	}
}

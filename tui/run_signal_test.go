package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// The test binary is also "the tool" for these tests (TT_TUI_HELPER): Run on a pipe for a terminal, as the
// command line calls it. init runs before TestMain, so the reaper check comes first here too.
func init() {
	mode := os.Getenv("TT_TUI_HELPER")
	if mode == "" {
		return
	}
	session.MaybeRunReaper()
	set, _ := playbooks.Builtin()
	o := Options{LoadPlaybooks: func() (*playbooks.Set, []error) { return set, nil }, NoColor: true}
	switch mode {
	case "open":
		o.Mode, o.Paths = ModeOpen, []string{filepath.Join("..", "testdata", "fixtures", "torch-2.14", "gb_recompile.triage.log")}
	case "run":
		store, err := runs.OpenStore(os.Getenv("TT_TUI_STORE"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		o.Mode, o.Store = ModeRun, store
		o.Spec = runs.Spec{Argv: []string{"sh", "-c", "echo started; exec sleep 300"}, Preset: "eager",
			Grace: 200 * time.Millisecond, Stall: -1}
		if os.Getenv("TT_TUI_NOSTART") != "" {
			o.Spec.Argv = []string{"/nonexistent/repro-binary"}
		}
		if os.Getenv("TT_TUI_NOTORCH") != "" { // torchrun of a python without torch: it starts, and fails at once
			o.Spec.Argv = []string{"sh", "-c", "echo \"ModuleNotFoundError: No module named 'torch'\" >&2; exit 1"}
		}
	}
	// stdin is the pipe standing for the terminal; a File other than os.Stdin, so that Run reads it as given
	os.Exit(Run(o, os.NewFile(0, "terminal"), os.Stdout, os.Stderr))
}

// helperTUI starts the helper with stdin a pipe the test holds (the terminal) and its output in a file.
func helperTUI(t *testing.T, mode string, env ...string) (*exec.Cmd, io.WriteCloser, screenFile) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), "TT_TUI_HELPER="+mode), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out := screenFile(filepath.Join(t.TempDir(), "screen"))
	f, err := os.Create(string(out))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close() // the child has its own copy
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = in.Close(); _ = cmd.Wait() })
	return cmd, in, out
}

// screenFile is the file a helper writes its screen to.
type screenFile string

func (o screenFile) String() string {
	b, _ := os.ReadFile(string(o))
	return string(b)
}

func pollUntil(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
	}
}

// waitExit waits up to d for the helper to end and returns how.
func waitExit(t *testing.T, cmd *exec.Cmd, d time.Duration, out screenFile) syscall.WaitStatus {
	t.Helper()
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		_ = cmd.Process.Signal(syscall.SIGQUIT) // its goroutines, for the failure
		<-done
		t.Fatalf("the TUI did not exit within %v; output:\n%s", d, out.String())
	}
	return cmd.ProcessState.Sys().(syscall.WaitStatus)
}

// SIGTERM or SIGINT to the TUI with no run live ends it promptly, dying of that signal (exit 143 or 130 in a
// shell): bubbletea's own signal handler and the tool's used to wait on each other, 2 to 7 times in 10.
func TestSignalEndsTheTUIPromptly(t *testing.T) {
	for i := range 12 {
		sig := []syscall.Signal{syscall.SIGTERM, syscall.SIGINT}[i%2]
		cmd, _, out := helperTUI(t, "open")
		pollUntil(t, 10*time.Second, "the first screen", func() bool { return out.String() != "" })
		time.Sleep(time.Duration(i%4) * 20 * time.Millisecond) // signals early and later in the program's life
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		ws := waitExit(t, cmd, 5*time.Second, out)
		if !ws.Signaled() || ws.Signal() != sig {
			t.Fatalf("try %d: %v ended it with %v (exit %d), want death by the signal", i, sig, ws, ws.ExitStatus())
		}
	}
}

// When the terminal goes away without a SIGHUP (its read end hits EOF), the TUI cancels its run as on a hang-up
// and exits; it kept running forever, and its repro with it.
func TestLostTerminalEndsTheTUIAndItsRun(t *testing.T) {
	store := filepath.Join(t.TempDir(), "runs")
	cmd, in, out := helperTUI(t, "run", "TT_TUI_STORE="+store)
	var meta runs.Meta
	pollUntil(t, 15*time.Second, "the run to start", func() bool {
		dirs, _ := filepath.Glob(filepath.Join(store, "0001-*"))
		if len(dirs) == 0 {
			return false
		}
		data, _ := os.ReadFile(filepath.Join(dirs[0], "stdout.log"))
		raw, _ := os.ReadFile(filepath.Join(dirs[0], "meta.json"))
		return bytes.Contains(data, []byte("started")) && json.Unmarshal(raw, &meta) == nil && meta.Pid > 0
	})
	if err := in.Close(); err != nil {
		t.Fatal(err)
	}
	ws := waitExit(t, cmd, 10*time.Second, out)
	if !(ws.Signaled() && ws.Signal() == syscall.SIGHUP) && ws.ExitStatus() != 129 {
		t.Errorf("exit %v, want as on SIGHUP (129)", ws)
	}
	pollUntil(t, 5*time.Second, "the repro to be gone", func() bool { return syscall.Kill(meta.Pid, 0) != nil })
	if m, err := runs.LoadRun(filepath.Dir(filepath.Join(store, meta.Name, "x"))); err != nil || m.State != runs.StateKilled {
		t.Errorf("run after the hang-up: %q, %v; want killed", m.State, err)
	}
}

// A run whose launch never started is no success: quitting `torchtriage run` then exits 3 (check's "did not
// complete") and says why, instead of 0.
func TestRunThatNeverStartedExitsNonZero(t *testing.T) {
	store := t.TempDir()
	cmd, in, out := helperTUI(t, "run", "TT_TUI_STORE="+store, "TT_TUI_NOSTART=1")
	pollUntil(t, 10*time.Second, "the run's meta.json saying it failed to start", func() bool {
		metas, _ := filepath.Glob(filepath.Join(store, "*", "meta.json"))
		for _, p := range metas {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(string(runs.StateFailedToStart))) {
				return true
			}
		}
		return false
	})
	time.Sleep(300 * time.Millisecond) // the started message reaches the model after the meta is written
	if _, err := in.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	ws := waitExit(t, cmd, 10*time.Second, out)
	if ws.ExitStatus() != exitDidNotStart || !bytes.Contains([]byte(out.String()), []byte("the repro did not start: ")) {
		t.Errorf("exit %d, output:\n%s", ws.ExitStatus(), out.String())
	}
}

// A launch that starts a process which dies before the program ran (torchrun --nproc 2 of a python without
// torch) is no success either: the analysis says did not start, and run exits 3 saying why; it exited 0.
func TestRunWhoseCommandFailedBeforeTorchExitsNonZero(t *testing.T) {
	store := t.TempDir()
	cmd, in, out := helperTUI(t, "run", "TT_TUI_STORE="+store, "TT_TUI_NOTORCH=1")
	pollUntil(t, 10*time.Second, "the run's meta.json saying it exited", func() bool {
		metas, _ := filepath.Glob(filepath.Join(store, "*", "meta.json"))
		for _, p := range metas {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(`"exit_code": 1`)) {
				return true
			}
		}
		return false
	})
	time.Sleep(500 * time.Millisecond) // the final batch reaches the model after the meta is written
	if _, err := in.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	ws := waitExit(t, cmd, 10*time.Second, out)
	if ws.ExitStatus() != exitDidNotStart || !strings.Contains(out.String(), "torchtriage run: the repro did not start: the command exited with code 1 before any torch output") {
		t.Errorf("exit %d, output:\n%s", ws.ExitStatus(), out.String())
	}
}

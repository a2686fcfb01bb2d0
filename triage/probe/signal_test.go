//go:build unix

package probe

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSIGUSR1DumpsStacksAndProcessContinues(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t))
	dir := t.TempDir()
	goFile := filepath.Join(dir, "go")
	script := filepath.Join(dir, "sleeper.py")
	src := "import os, sys, time\nprint('started', flush=True)\ndeadline = time.time() + 30\n" +
		"while not os.path.exists(sys.argv[1]) and time.time() < deadline:\n    time.sleep(0.01)\n" +
		"print('finished', flush=True)\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python3(t), script, goFile)
	cmd.Env = env
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	pid := cmd.Process.Pid
	waitFor(t, "the ready marker", func() bool { return slices.Contains(ReadyPIDs(runDir), pid) })
	// the marker is written while the interpreter starts, before the script runs: a dump then has no Python
	// frame to show (a flake: 1 run in 5 on the 2-core machine)
	waitFor(t, "the script to run", func() bool { return strings.Contains(stdout.String(), "started") })
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the stack dump", func() bool { return strings.Contains(stderr.String(), "most recent call first") })
	if err := os.WriteFile(goFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("process did not survive SIGUSR1: %v\nstderr: %s", err, stderr.String())
	}
	if stdout.String() != "started\nfinished\n" {
		t.Errorf("stdout %q", stdout.String())
	}
	if !strings.Contains(stderr.String(), `sleeper.py", line`) {
		t.Errorf("dump does not show the script's frame:\n%s", stderr.String())
	}
	if slices.Contains(ReadyPIDs(runDir), pid) {
		t.Error("marker must be gone after a normal exit")
	}
}

func TestReadyPIDsIgnoresStaleMarkers(t *testing.T) {
	runDir := t.TempDir()
	dir := Dir(runDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ready-"+itoa(self), startTime(self)+"\n")
	write("ready-99999999", "\n") // above any pid_max: no such process
	write("ready-abc", "\n")
	write("ready-"+itoa(os.Getppid()), "1\n") // a live pid whose start time does not match
	got := ReadyPIDs(runDir)
	want := []int{self}
	if startTime(self) == "" { // no /proc: start times cannot be compared
		want = []int{self, os.Getppid()}
		slices.Sort(want)
	}
	if !slices.Equal(got, want) {
		t.Errorf("ReadyPIDs = %v, want %v", got, want)
	}
	if ReadyPIDs(filepath.Join(runDir, "missing")) != nil {
		t.Error("a missing probe dir gives no pids")
	}
}

// A stack dump carries no pid and, without torchrun's --tee, no rank: the start file's thread id is what the dump
// prints for the process's main thread, so a dump is attributed to its rank through the probe's files (real
// CPython, the fake torch).
func TestStartThreadNamesTheDumpsMainThread(t *testing.T) {
	runDir, env := installProbe(t, fakeTorch(t), "RANK=1")
	dir := t.TempDir()
	goFile := filepath.Join(dir, "go")
	script := filepath.Join(dir, "waiter.py")
	src := "import os, sys, time, torch\nprint('started', flush=True)\ndeadline = time.time() + 30\n" +
		"while not os.path.exists(sys.argv[1]) and time.time() < deadline:\n    time.sleep(0.01)\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python3(t), script, goFile)
	cmd.Env = env
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFor(t, "the script to run", func() bool { return strings.Contains(stdout.String(), "started") })
	if err := syscall.Kill(cmd.Process.Pid, syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the stack dump", func() bool { return strings.Contains(stderr.String(), "waiter.py") })
	if err := os.WriteFile(goFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	starts, errs := ReadStarts(runDir)
	if len(errs) != 0 || len(starts) != 1 || starts[0].Rank != 1 || starts[0].ThreadID() == "" {
		t.Fatalf("starts %+v %v", starts, errs)
	}
	if head := "thread " + starts[0].ThreadID() + " "; !strings.Contains(stderr.String(), head) {
		t.Errorf("the dump does not name the main thread %s:\n%s", starts[0].ThreadID(), stderr.String())
	}
}

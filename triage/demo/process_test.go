//go:build unix

package demo

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func child(args []string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), append([]string{"TORCHTRIAGE_DEMO_HELPER=1"}, env...)...)
	return cmd
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

func TestChildSplitsStreams(t *testing.T) {
	cmd := child(nil, "TORCH_LOGS=graph_breaks,recompiles", "TORCHTRIAGE_DEMO_SPEED=1000")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if code := exitCode(t, cmd.Run()); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	want := Banner("gb_recompile", "triage") + "\n" + userOutput["gb_recompile"]
	if out.String() != want {
		t.Errorf("stdout:\n%s", out.String())
	}
	var logLines strings.Builder
	for _, l := range strings.SplitAfter(string(mustRecording(t, "gb_recompile.triage.log")), "\n") {
		if l != "side effect in helper\n" && l != "done\n" {
			logLines.WriteString(l)
		}
	}
	if errb.String() != logLines.String() {
		t.Errorf("stderr is not the recording's log lines (%d bytes, want %d)", errb.Len(), logLines.Len())
	}
}

func TestSignalsStopReplay(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		// r05 at 1/1000 speed would take well over an hour.
		cmd := child([]string{"--scenario", "r05_dist_c10d"}, "TORCH_LOGS=graph_breaks,recompiles", "TORCHTRIAGE_DEMO_SPEED=0.001")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		first, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil || !strings.HasPrefix(first, "torchtriage demo: replaying") {
			cmd.Process.Kill()
			t.Fatalf("no banner: %q %v", first, err)
		}
		start := time.Now()
		if err := cmd.Process.Signal(c.sig); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if code := exitCode(t, err); code != c.code {
				t.Errorf("%v: exit %d, want %d", c.sig, code, c.code)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("%v: took %v to stop", c.sig, d)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v did not stop the replay", c.sig)
		}
	}
}

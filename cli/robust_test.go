package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runner"
	"github.com/torchtriage/torchtriage/triage/session"
)

// runWithin runs a command line and fails the test when it does not end within d (a hang).
func runWithin(t *testing.T, d time.Duration, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errb := runCLI(args...)
		done <- result{code, out, errb}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(d):
		t.Fatalf("%v did not end within %v", args, d)
	}
	return 0, "", ""
}

// `report DIR` takes regular files only: a FIFO or a link to a device named like a log is skipped (it would block
// or never end), and --verbose says how many were.
func TestReportDirSkipsFIFOsAndDevices(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(fx("torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "train.log", string(data))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.log"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.log")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("train.log", filepath.Join(dir, "link.txt")); err != nil { // a link to a log still counts
		t.Fatal(err)
	}
	code, out, errb := runWithin(t, 20*time.Second, "report", "--verbose", dir)
	if code != 0 || !strings.Contains(out, "graph break") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errb, out)
	}
	if !strings.Contains(errb, "skipped 2 entries that are not regular files") || !strings.Contains(errb, "pipe.log") {
		t.Errorf("stderr %q does not say that 2 entries were skipped", errb)
	}
	if code, _, errb := runWithin(t, 20*time.Second, "report", dir); code != 0 || strings.Contains(errb, "skipped") {
		t.Errorf("without --verbose: exit %d, stderr %q", code, errb)
	}
}

// `report` of a run directory whose tool died says that the run was interrupted.
func TestReportOfAnInterruptedRunWarns(t *testing.T) {
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	data, err := os.ReadFile(fx("torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "stderr.log", string(data))
	meta, _ := json.Marshal(session.Meta{ID: 3, Name: "0003-breaks", State: session.StateRunning,
		Supervisor: &runner.Supervisor{Pid: gone.Process.Pid}})
	writeFile(t, dir, "meta.json", string(meta))
	code, out, errb := runCLI("report", dir)
	if code != 0 || !strings.Contains(out, "graph break") {
		t.Fatalf("exit %d, stderr %q", code, errb)
	}
	if !strings.Contains(errb, "warning: run 0003-breaks was interrupted") {
		t.Errorf("stderr %q lacks the interrupted warning", errb)
	}
}

// A device named on the command line is refused in one line (/dev/zero never ended); /dev/null and pipes (a
// shell's <(cmd)) still read.
func TestReportRefusesADevice(t *testing.T) {
	code, _, errb := runWithin(t, 20*time.Second, "report", "/dev/zero")
	if code != 2 || errb != "torchtriage report: /dev/zero is a device, not a log file (give - to read standard input)\n" {
		t.Errorf("report /dev/zero: exit %d, stderr %q", code, errb)
	}
	if code, _, errb := runWithin(t, 20*time.Second, "report", os.DevNull); code != 0 {
		t.Errorf("report %s: exit %d, stderr %q", os.DevNull, code, errb)
	}
}

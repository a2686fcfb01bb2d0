package cli

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
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
// or never end), and a dangling link too; stderr says which and why, whatever the flags, and so do the JSON's
// evidence.skipped and the Markdown report.
func TestReportDirSkipsFIFOsAndDevices(t *testing.T) {
	dir := logDir(t, "train.log")
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.log"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.log")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("gone.log", filepath.Join(dir, "old.log")); err != nil { // dangling
		t.Fatal(err)
	}
	if err := os.Symlink("train.log", filepath.Join(dir, "link.txt")); err != nil { // a link to a log still counts
		t.Fatal(err)
	}
	code, out, errb := runWithin(t, 20*time.Second, "report", dir)
	if code != 0 || !strings.Contains(out, "graph break") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errb, out)
	}
	for _, want := range []string{"skipped 3 entries that are not regular files", "pipe.log (fifo)", "zero.log (device)", "old.log (dangling link)"} {
		if !strings.Contains(errb, want) {
			t.Errorf("stderr %q does not say %q", errb, want)
		}
	}
	code, out, errb = runWithin(t, 20*time.Second, "report", "--format", "json", dir)
	var rep struct {
		Evidence struct {
			Skipped []struct{ Path, Why string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("json: exit %d, %v, stderr %q", code, err, errb)
	}
	got := map[string]string{}
	for _, s := range rep.Evidence.Skipped {
		got[filepath.Base(s.Path)] = s.Why
	}
	if want := map[string]string{"pipe.log": "fifo", "zero.log": "device", "old.log": "dangling_link"}; !maps.Equal(got, want) {
		t.Errorf("evidence.skipped %v, want %v", got, want)
	}
	if _, out, _ := runWithin(t, 20*time.Second, "report", "--format", "markdown", dir); !strings.Contains(out, "skipped 3 entries") {
		t.Errorf("the Markdown report does not say what was skipped:\n%s", out)
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

// tinyDisk mounts a 64 KiB tmpfs (root only; the test skips where mounting is not permitted).
func tinyDisk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// check -- CMD on a disk that fills up names the path and ENOSPC and exits 3 (it said only "exited with code
// 1"), and keeps what was written before; a disk full from the start too (it was a usage error, exit 2).
func TestCheckOnAFullDisk(t *testing.T) {
	disk := tinyDisk(t)
	store := filepath.Join(disk, "runs")
	fill := `i=0; while [ $i -lt 4000 ]; do echo "line $i of a repro that fills the disk"; i=$((i+1)); done; exit 1`
	code, _, errb := runWithin(t, 30*time.Second, "check", "--max-graph-breaks", "0", "--store", store, "--", "sh", "-c", fill)
	if code != 3 || !strings.Contains(errb, "ENOSPC") || !strings.Contains(errb, store) {
		t.Errorf("filling the disk: exit %d, stderr:\n%s", code, errb)
	}
	run := filepath.Join(store, "0001-breaks")
	if out, _ := os.ReadFile(filepath.Join(run, "stdout.log")); !strings.HasPrefix(string(out), "line 0 of a repro that fills the disk\nline 1 ") {
		t.Errorf("stdout.log lost its start: %.80q", out)
	}
	if _, err := runs.LoadRun(run); err != nil {
		t.Errorf("meta.json no longer readable: %v", err)
	}
	if code, _, errb := runWithin(t, 30*time.Second, "check", "--max-graph-breaks", "0", "--store", store, "--", "true"); code != 3 ||
		!strings.Contains(errb, "ENOSPC") || !strings.Contains(errb, store) || strings.Count(strings.TrimSpace(errb), "\n") > 1 {
		t.Errorf("on a full disk: exit %d, stderr:\n%s", code, errb)
	}
}

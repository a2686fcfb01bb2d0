package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

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
// 1"); a disk full from the start too (it was a usage error, exit 2).
func TestCheckOnAFullDisk(t *testing.T) {
	disk := tinyDisk(t)
	store := filepath.Join(disk, "runs")
	fill := `i=0; while [ $i -lt 4000 ]; do echo "line $i of a repro that fills the disk"; i=$((i+1)); done; exit 1`
	code, _, errb := runWithin(t, 30*time.Second, "check", "--max-graph-breaks", "0", "--store", store, "--", "sh", "-c", fill)
	if code != 3 || !strings.Contains(errb, "ENOSPC") || !strings.Contains(errb, store) {
		t.Errorf("filling the disk: exit %d, stderr:\n%s", code, errb)
	}
	if code, _, errb := runWithin(t, 30*time.Second, "check", "--max-graph-breaks", "0", "--store", store, "--", "true"); code != 3 ||
		!strings.Contains(errb, "ENOSPC") || !strings.Contains(errb, store) || strings.Count(strings.TrimSpace(errb), "\n") > 1 {
		t.Errorf("on a full disk: exit %d, stderr:\n%s", code, errb)
	}
}

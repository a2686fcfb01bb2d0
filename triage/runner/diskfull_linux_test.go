package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tinyDisk mounts a 64 KiB tmpfs for a store (root only; the test skips where mounting is not permitted).
func tinyDisk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// A repro that fills the disk: the run names the path and ENOSPC (meta and an error event), and what was
// written before the disk filled is kept.
func TestDiskFullIsNamedAndNothingWrittenIsLost(t *testing.T) {
	t.Parallel()
	store, err := OpenStore(filepath.Join(tinyDisk(t), "runs"))
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	r, err := Start(context.Background(), store, Spec{Argv: []string{"sh", "-c",
		`i=0; while [ $i -lt 4000 ]; do echo "line $i of a repro that fills the disk"; i=$((i+1)); done`},
		Preset: "eager", Grace: testGrace, Stall: -1}, rec.sink)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Wait()
	if !strings.Contains(m.DiskFull, "no space left on device (ENOSPC)") || !strings.Contains(m.DiskFull, r.Dir) {
		t.Errorf("DiskFull %q, want ENOSPC and a path in %s", m.DiskFull, r.Dir)
	}
	var said bool
	for _, e := range rec.all() {
		said = said || e.Kind == EventError && strings.HasPrefix(e.Err.Error(), "disk full: ")
	}
	if !said {
		t.Errorf("no disk-full error event; events %v", rec.kinds(r.ID))
	}
	out, _ := os.ReadFile(filepath.Join(r.Dir, "stdout.log"))
	if !strings.HasPrefix(string(out), "line 0 of a repro that fills the disk\nline 1 ") {
		t.Errorf("stdout.log lost its start: %.80q", out)
	}
	if _, err := LoadRun(r.Dir); err != nil {
		t.Errorf("meta.json no longer readable: %v", err)
	}
}

// Without a tmpfs: the free space the run sees at its end is injected.
func TestDiskFullAtTheEndIsNamed(t *testing.T) {
	old := freeSpace
	freeSpace = func(string) (uint64, error) { return 0, nil }
	t.Cleanup(func() { freeSpace = old })
	r, err := Start(context.Background(), newStore(t), Spec{Argv: []string{"true"}, Preset: "eager", Stall: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := r.Wait(); !strings.Contains(m.DiskFull, "no space left on device (ENOSPC)") || !strings.Contains(m.DiskFull, r.Dir) {
		t.Errorf("DiskFull %q, want ENOSPC in %s", m.DiskFull, r.Dir)
	}
}

//go:build unix

package logparse

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The entries of a walked directory that are not read each say why: a FIFO, a socket, a link to a device, a link
// to a directory and a dangling link, named like logs, are skipped with their reason; the regular log and a link
// to it are read (once).
func TestFindSaysWhyEachSkippedEntryWasSkipped(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "train.log"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(dir, "pipe.log")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	l, err := net.Listen("unix", filepath.Join(dir, "sock.log"))
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	for link, to := range map[string]string{"zero.log": os.DevNull, "gone.log": "nowhere.log", "sub.txt": dir, "train.txt": "train.log"} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	f, err := Find([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []Skip{
		{filepath.Join(dir, "gone.log"), SkipDanglingLink},
		{filepath.Join(dir, "pipe.log"), SkipFIFO},
		{filepath.Join(dir, "sock.log"), SkipSocket},
		{filepath.Join(dir, "sub.txt"), SkipDirectory},
		{filepath.Join(dir, "zero.log"), SkipDevice},
	}
	if !slices.Equal(f.Skipped, want) {
		t.Errorf("skipped %v, want %v", f.Skipped, want)
	}
	if len(f.Inputs) != 1 || f.Inputs[0].Path != filepath.Join(dir, "train.log") {
		t.Errorf("inputs %v, want train.log alone", f.Inputs)
	}
}

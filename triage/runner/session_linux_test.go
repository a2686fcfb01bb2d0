package runner

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// sessionOf reads the session id (field 6) of /proc/<pid>/stat text.
func sessionOf(t *testing.T, stat string) string {
	t.Helper()
	// the command name (field 2) is in parentheses and may hold spaces: the fields after it start at ") "
	i := strings.LastIndex(stat, ") ")
	if i < 0 {
		t.Fatalf("stat %q", stat)
	}
	f := strings.Fields(stat[i+2:]) // state, ppid, pgrp, session, …
	if len(f) < 4 {
		t.Fatalf("stat %q", stat)
	}
	return f[3]
}

// The repro runs in a session of its own, so it has no controlling terminal: under the TUI it could open
// /dev/tty and write onto the screen or read the keys (it was only in a process group of its own, in the
// tool's session, with the tool's terminal as its controlling terminal).
func TestReproHasASessionOfItsOwn(t *testing.T) {
	t.Parallel()
	r, err := Start(context.Background(), newStore(t), runs.Spec{Argv: []string{"sh", "-c", "cat /proc/$$/stat; echo; echo pid $$"},
		Preset: "eager", Grace: testGrace, Stall: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	out, _ := os.ReadFile(filepath.Join(r.Dir, "stdout.log"))
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	self, err := os.ReadFile("/proc/self/stat")
	if err != nil || len(lines) < 2 {
		t.Fatalf("%v %q", err, out)
	}
	child, pid := sessionOf(t, lines[0]), strings.TrimPrefix(lines[len(lines)-1], "pid ")
	if child == sessionOf(t, string(self)) || child != pid {
		t.Errorf("the repro (pid %s) is in session %s, the tool in %s: want a session of its own", pid, child, sessionOf(t, string(self)))
	}
}

// The repro inherits no descriptor of the tool but its stdin (/dev/null), stdout and stderr: one the tool got
// from its parent without close-on-exec (a pipe of the shell that started it) or opened without it (the TUI's
// terminal reader opens an epoll instance so) went on into the repro and its children, which could hold the
// parent's pipeline open after the tool ended.
func TestReproInheritsNoOtherDescriptor(t *testing.T) {
	fd, err := syscall.Dup(2) // a dup has no close-on-exec, as an inherited descriptor has none
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	r, err := Start(context.Background(), newStore(t), runs.Spec{Argv: []string{"sh", "-c", "ls /proc/$$/fd"},
		Preset: "eager", Grace: testGrace, Stall: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	out, _ := os.ReadFile(filepath.Join(r.Dir, "stdout.log"))
	fds := strings.Fields(string(out))
	for _, f := range fds {
		if f == strconv.Itoa(fd) {
			t.Errorf("the repro holds the tool's descriptor %d: its descriptors are %v", fd, fds)
		}
	}
	if len(fds) < 3 {
		t.Errorf("descriptors %q", out)
	}
}

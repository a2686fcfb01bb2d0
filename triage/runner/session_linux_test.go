package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	r, err := Start(context.Background(), newStore(t), Spec{Argv: []string{"sh", "-c", "cat /proc/$$/stat; echo; echo pid $$"},
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

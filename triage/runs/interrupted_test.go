package runs

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The supervisor is a process (pid, start time, boot): a pid reused by another process or a meta written
// before a reboot is not alive.
func TestInterruptedIsDecidedOnLoad(t *testing.T) {
	self := CurrentSupervisor()
	if self == nil {
		t.Skip("no process start times here")
	}
	otherStart, otherBoot := *self, *self
	otherStart.Start++
	otherBoot.Boot = "not-this-boot"
	for _, c := range []struct {
		name  string
		state State
		sup   *Supervisor
		want  State
	}{
		{"alive", StateRunning, self, StateRunning},
		{"alive stalled", StateStalled, self, StateStalled},
		{"pid reused", StateRunning, &otherStart, StateInterrupted},
		{"other boot", StateStalled, &otherBoot, StateInterrupted},
		{"finished", StateExited, &otherStart, StateExited},
	} {
		dir := t.TempDir()
		data, _ := json.Marshal(Meta{ID: 1, Name: "0001-x", State: c.state, Supervisor: c.sup})
		if err := os.WriteFile(filepath.Join(dir, metaFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if m, err := LoadRun(dir); err != nil || m.State != c.want {
			t.Errorf("%s: state %q, %v; want %q", c.name, m.State, err, c.want)
		}
	}
}

// A meta written before supervisors were recorded is interrupted when its repro's pid is gone.
func TestInterruptedWithoutSupervisorGoesByTheReproPid(t *testing.T) {
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip(err)
	}
	for _, c := range []struct {
		pid  int
		want State
	}{{gone.Process.Pid, StateInterrupted}, {os.Getpid(), StateRunning}, {0, StateRunning}} {
		dir := t.TempDir()
		data, _ := json.Marshal(Meta{ID: 1, Name: "0001-x", State: StateRunning, Pid: c.pid})
		if err := os.WriteFile(filepath.Join(dir, metaFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if m, err := LoadRun(dir); err != nil || m.State != c.want {
			t.Errorf("repro pid %d: state %q, %v; want %q", c.pid, m.State, err, c.want)
		}
	}
}

// A run left "running" by a SIGKILLed supervisor (or one that died of a full disk) is rewritten "interrupted" by
// the next command that opens the store: meta.json stops lying, through a temporary file and a rename, and
// nothing else in it changes. A live supervisor's run, and a meta without a supervisor (its supervisor cannot be
// known dead), are left as they are.
func TestInterruptedIsWrittenBack(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip(err)
	}
	self := CurrentSupervisor()
	gone := &Supervisor{Pid: dead.Process.Pid, Boot: self.Boot}
	exit := 0
	store, err := OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, m Meta) string {
		dir := filepath.Join(store.Dir, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		data, _ := json.MarshalIndent(m, "", "  ")
		if err := os.WriteFile(filepath.Join(dir, metaFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	killed := write("0001-breaks", Meta{ID: 1, Name: "0001-breaks", Argv: []string{"python", "r.py"}, Preset: "breaks",
		State: StateRunning, Pid: dead.Process.Pid, Supervisor: gone, Note: "kept"})
	full := write("0002-breaks", Meta{ID: 2, Name: "0002-breaks", State: StateStalled, Supervisor: gone, DiskFull: "ENOSPC: stdout.log"})
	live := write("0003-breaks", Meta{ID: 3, Name: "0003-breaks", State: StateRunning, Supervisor: self})
	legacy := write("0004-breaks", Meta{ID: 4, Name: "0004-breaks", State: StateRunning, Pid: dead.Process.Pid})
	done := write("0005-breaks", Meta{ID: 5, Name: "0005-breaks", State: StateExited, ExitCode: &exit, Supervisor: gone})
	before := map[string][]byte{}
	for _, d := range []string{killed, full, live, legacy, done} {
		before[d], _ = os.ReadFile(filepath.Join(d, metaFile))
	}

	list, err := store.List()
	if err != nil || len(list) != 5 {
		t.Fatalf("%d runs, %v", len(list), err)
	}
	onDisk := func(dir string) Meta {
		var m Meta
		data, err := os.ReadFile(filepath.Join(dir, metaFile))
		if err != nil || json.Unmarshal(data, &m) != nil {
			t.Fatalf("%s: %v %s", dir, err, data)
		}
		return m
	}
	for _, c := range []struct {
		dir  string
		want State
	}{{killed, StateInterrupted}, {full, StateInterrupted}, {live, StateRunning}, {legacy, StateRunning}, {done, StateExited}} {
		if got := onDisk(c.dir).State; got != c.want {
			t.Errorf("%s: meta.json says %q, want %q", filepath.Base(c.dir), got, c.want)
		}
	}
	for _, d := range []string{live, legacy, done} {
		if after, _ := os.ReadFile(filepath.Join(d, metaFile)); string(after) != string(before[d]) {
			t.Errorf("%s was rewritten:\n%s", filepath.Base(d), after)
		}
	}
	if m := onDisk(killed); m.Note != "kept" || m.Pid != dead.Process.Pid || m.Supervisor == nil || m.Supervisor.Pid != gone.Pid ||
		len(m.Argv) != 2 || onDisk(full).DiskFull == "" {
		t.Errorf("more than the state changed: %+v", m)
	}
	for _, d := range []string{killed, full} {
		entries, _ := os.ReadDir(d)
		if len(entries) != 1 {
			t.Errorf("%s holds %d files: a temporary file was left", filepath.Base(d), len(entries))
		}
	}
}

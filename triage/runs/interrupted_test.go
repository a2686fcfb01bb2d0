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

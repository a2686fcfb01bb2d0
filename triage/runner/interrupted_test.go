package runner

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// A run whose tool was SIGKILLed stays "running" in meta.json; once loaded, its supervisor is known to be gone
// and it reads as interrupted, in LoadRun and in the store's listing.
func TestRunOfAKilledToolIsInterrupted(t *testing.T) {
	t.Parallel()
	tool, dir := startHelperTool(t, "sh "+testdata(t, "family.sh"), testGrace)
	pids := familyPids(t, dir)
	if m, err := LoadRun(dir); err != nil || m.State != StateRunning {
		t.Fatalf("while the tool lives: state %q, %v; want running", m.State, err)
	}
	if err := tool.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = tool.Wait()
	assertAllGone(t, pids, 10*time.Second)
	if m, err := LoadRun(dir); err != nil || m.State != "interrupted" {
		t.Errorf("after SIGKILL: state %q, %v; want interrupted", m.State, err)
	}
	store := &Store{Dir: filepath.Dir(dir)}
	if list, err := store.List(); err != nil || len(list) != 1 || list[0].State != "interrupted" {
		t.Errorf("listing: %+v, %v; want the run interrupted", list, err)
	}
}

// The supervisor is a process (pid, start time, boot): a pid reused by another process or a meta written
// before a reboot is not alive.
func TestInterruptedIsDecidedOnLoad(t *testing.T) {
	self := currentSupervisor()
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

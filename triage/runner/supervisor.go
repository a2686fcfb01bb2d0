package runner

import (
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"
)

// Supervisor is the process that supervises a run (the tool that launched it), as meta.json records it: a
// run still "running" or "stalled" whose supervisor is gone (SIGKILL, a crash, a reboot) was interrupted.
type Supervisor struct {
	Pid   int    `json:"pid"`
	Start uint64 `json:"start_ticks,omitempty"` // start time, clock ticks after boot (/proc/<pid>/stat)
	Boot  string `json:"boot_id,omitempty"`     // /proc/sys/kernel/random/boot_id
}

// selfProc is this process as a supervisor.
var selfProc = sync.OnceValue(func() Supervisor {
	s := Supervisor{Pid: os.Getpid(), Boot: bootID()}
	if e, ok := readStat(s.Pid); ok {
		s.Start = e.start
	}
	return s
})

func currentSupervisor() *Supervisor {
	s := selfProc()
	return &s
}

func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// alive reports whether the supervisor still runs: same boot, and its pid is the same process (same start
// time). Without /proc only the pid can be checked.
func (s *Supervisor) alive() bool {
	if s == nil || s.Pid <= 0 {
		return false
	}
	if s.Boot != "" && s.Boot != selfProc().Boot {
		return false
	}
	if e, ok := readStat(s.Pid); ok {
		return running(e.state) && (s.Start == 0 || e.start == s.Start)
	}
	return pidExists(s.Pid) && (s.Start == 0 || selfProc().Start == 0)
}

func pidExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// settle turns a live state whose supervisor is gone into StateInterrupted. A meta written before supervisors
// were recorded is interrupted when its repro's process is gone (without a pid, nothing can be told).
func (m *Meta) settle() {
	if m.State != StateRunning && m.State != StateStalled {
		return
	}
	if m.Supervisor != nil && !m.Supervisor.alive() || m.Supervisor == nil && m.Pid > 0 && !pidExists(m.Pid) {
		m.State = StateInterrupted
	}
}

func running(state byte) bool { return state != 'Z' && state != 'X' && state != 'x' }

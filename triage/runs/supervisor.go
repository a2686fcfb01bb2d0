package runs

import (
	"os"
	"sync"

	"github.com/torchtriage/torchtriage/internal/proc"
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
	s := Supervisor{Pid: os.Getpid(), Boot: proc.BootID()}
	if e, ok := proc.Stat(s.Pid); ok {
		s.Start = e.Start
	}
	return s
})

// CurrentSupervisor is this process as the supervisor of the runs it launches (Meta.Supervisor).
func CurrentSupervisor() *Supervisor {
	s := selfProc()
	return &s
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
	if e, ok := proc.Stat(s.Pid); ok {
		return proc.Running(e.State) && (s.Start == 0 || e.Start == s.Start)
	}
	return proc.Exists(s.Pid) && (s.Start == 0 || selfProc().Start == 0)
}

// settle turns a live state whose supervisor is gone into StateInterrupted, and reports whether it did. A meta
// written before supervisors were recorded is interrupted when its repro's process is gone (without a pid,
// nothing can be told).
func (m *Meta) settle() bool {
	if m.State != StateRunning && m.State != StateStalled {
		return false
	}
	if m.Supervisor != nil && !m.Supervisor.alive() || m.Supervisor == nil && m.Pid > 0 && !proc.Exists(m.Pid) {
		m.State = StateInterrupted
		return true
	}
	return false
}

//go:build unix

package runner

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// runMarkerEnv is set in every run's environment to a token unique to the
// run. Processes inherit it, so it finds the run's processes that left its
// process group: torchrun starts each rank with start_new_session=True.
const runMarkerEnv = "TORCHTRIAGE_RUN"

// procGroup is every process a run started: its process group, the
// processes carrying its marker token, and those that escaped both (their
// own session, a cleared environment) but write to the run's output or were
// seen in the run before; each with its descendants.
type procGroup struct {
	pgid  int
	token string
	dir   string  // the run directory, whose stdout.log and stderr.log the run writes
	anyFd bool    // look for their writers among all processes (the reaper), not only the tool's adopted orphans
	known *pidSet // processes found in the run before: still the run's once orphaned
}

// outputsOf stats the output files of the run directory dir, when they are there (anew for every scan: the
// inode of a deleted file may be another file's by then).
func outputsOf(dir string) []os.FileInfo {
	if dir == "" {
		return nil
	}
	var out []os.FileInfo
	for _, name := range []string{"stdout.log", "stderr.log"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil {
			out = append(out, st)
		}
	}
	return out
}

// pidSet is a set of processes by pid and start time (a reused pid is another process).
type pidSet struct {
	mu sync.Mutex
	m  map[int]uint64
}

func (s *pidSet) has(pid int, start uint64) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.m[pid]
	return ok && st == start
}

// keep makes the set the members found by a scan.
func (s *pidSet) keep(members map[int]uint64) {
	if s != nil {
		s.mu.Lock()
		s.m = members
		s.mu.Unlock()
	}
}

// signal sends sig to the process group and to every marked process outside
// it (each process gets it once). It returns how many processes were alive.
func (g procGroup) signal(sig syscall.Signal) int {
	inGroup, outside := g.scan()
	if len(inGroup) > 0 { // never signal a group id that may have been reused
		_ = syscall.Kill(-g.pgid, sig)
	}
	for _, pid := range outside {
		_ = syscall.Kill(pid, sig)
	}
	return len(inGroup) + len(outside)
}

// members lists the live processes of the run.
func (g procGroup) members() []int {
	inGroup, outside := g.scan()
	return append(inGroup, outside...)
}

// alive reports whether any process of the run is still running (zombies
// waiting for a parent that does not reap them do not count).
func (g procGroup) alive() bool { return len(g.members()) > 0 }

// signalOne sends sig to pid if it is alive and belongs to the run.
func (g procGroup) signalOne(pid int, sig syscall.Signal) bool {
	if pid <= 0 || !g.contains(pid) {
		return false
	}
	return syscall.Kill(pid, sig) == nil
}

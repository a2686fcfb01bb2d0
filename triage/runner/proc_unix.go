//go:build unix

package runner

import "syscall"

// runMarkerEnv is set in every run's environment to a token unique to the
// run. Processes inherit it, so it finds the run's processes that left its
// process group: torchrun starts each rank with start_new_session=True.
const runMarkerEnv = "TORCHTRIAGE_RUN"

// procGroup is every process a run started: its process group plus the
// processes carrying its marker token.
type procGroup struct {
	pgid  int
	token string
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

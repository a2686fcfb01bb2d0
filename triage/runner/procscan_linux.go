package runner

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"github.com/torchtriage/torchtriage/internal/proc"
)

// setDeathSignal makes the kernel send sig to the child when its parent
// thread dies (Linux only).
func setDeathSignal(attr *syscall.SysProcAttr, sig syscall.Signal) { attr.Pdeathsig = sig }

// freeSpace is how many bytes the tool may still write on dir's file system (a variable: tests inject a full
// disk).
var freeSpace = func(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	blocks := st.Bavail
	if os.Geteuid() == 0 {
		blocks = st.Bfree // root writes into the reserved blocks too
	}
	return blocks * uint64(st.Bsize), nil
}

// procStat reads state and process group of pid from /proc/<pid>/stat.
func procStat(pid int) (state byte, pgrp int, ok bool) {
	e, ok := proc.Stat(pid)
	return e.State, e.Pgrp, ok
}

// marked reports whether pid's environment carries the run's token.
func (g procGroup) marked(pid int) bool {
	if g.token == "" {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	needle := []byte(runMarkerEnv + "=" + g.token + "\x00")
	return bytes.HasPrefix(data, needle) || bytes.Contains(data, append([]byte{0}, needle...))
}

// scan lists the live processes of the run from /proc: those in its
// process group, those outside it that carry its marker, write to its output
// (the tool's adopted orphans; any process for the reaper) or were found
// before, and the descendants of all of these. It reaps the run's zombies
// the tool adopted.
func (g procGroup) scan() (inGroup, outside []int) {
	procs := readProcs()
	self := os.Getpid()
	ancestors := map[int]bool{} // never the run's, whatever they hold open
	for p := os.Getppid(); p > 1 && !ancestors[p]; p = procs[p].PPID {
		ancestors[p] = true
	}
	outs := outputsOf(g.dir)
	in := map[int]bool{}
	for pid, e := range procs {
		if !ancestors[pid] && (g.pgid > 0 && e.Pgrp == g.pgid || g.known.has(pid, e.Start) || g.marked(pid) ||
			(g.anyFd || e.PPID == self) && proc.Running(e.State) && writesTo(pid, outs)) {
			in[pid] = true
		}
	}
	for grew := true; grew; { // and their descendants
		grew = false
		for pid, e := range procs {
			if !in[pid] && !ancestors[pid] && in[e.PPID] {
				in[pid], grew = true, true
			}
		}
	}
	known := map[int]uint64{}
	for pid := range in {
		e := procs[pid]
		known[pid] = e.Start
		switch {
		case !proc.Running(e.State):
			if e.PPID == self && pid != g.pgid { // an orphan the tool adopted; os/exec waits for the leader
				reapOrphan(pid)
			}
		case g.pgid > 0 && e.Pgrp == g.pgid:
			inGroup = append(inGroup, pid)
		default:
			outside = append(outside, pid)
		}
	}
	g.known.keep(known)
	return inGroup, outside
}

// readProcs reads every process but this one from /proc.
func readProcs() map[int]proc.Entry {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	self := os.Getpid()
	out := make(map[int]proc.Entry, len(names))
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid == self {
			continue
		}
		if e, ok := proc.Stat(pid); ok {
			out[pid] = e
		}
	}
	return out
}

// contains reports whether pid is alive and belongs to the run.
func (g procGroup) contains(pid int) bool {
	state, pgrp, ok := procStat(pid)
	if !ok || !proc.Running(state) {
		return false
	}
	return (g.pgid > 0 && pgrp == g.pgid) || g.marked(pid)
}

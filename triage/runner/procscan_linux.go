package runner

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// setDeathSignal makes the kernel send sig to the child when its parent
// thread dies (Linux only).
func setDeathSignal(attr *syscall.SysProcAttr, sig syscall.Signal) { attr.Pdeathsig = sig }

// procStat reads state and process group of pid from /proc/<pid>/stat.
func procStat(pid int) (state byte, pgrp int, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// "pid (comm) S ppid pgrp ..."; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	pgrp, err = strconv.Atoi(string(f[2]))
	return f[0][0], pgrp, err == nil
}

func running(state byte) bool { return state != 'Z' && state != 'X' && state != 'x' }

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
// process group, and those outside it that carry its marker.
func (g procGroup) scan() (inGroup, outside []int) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	self := os.Getpid()
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid == self {
			continue
		}
		state, pgrp, ok := procStat(pid)
		switch {
		case !ok || !running(state):
		case g.pgid > 0 && pgrp == g.pgid:
			inGroup = append(inGroup, pid)
		case g.marked(pid):
			outside = append(outside, pid)
		}
	}
	return inGroup, outside
}

// contains reports whether pid is alive and belongs to the run.
func (g procGroup) contains(pid int) bool {
	state, pgrp, ok := procStat(pid)
	if !ok || !running(state) {
		return false
	}
	return (g.pgid > 0 && pgrp == g.pgid) || g.marked(pid)
}

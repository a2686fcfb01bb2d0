//go:build unix && !linux

package runner

import "syscall"

// setDeathSignal is a no-op where the kernel has no parent-death signal.
func setDeathSignal(attr *syscall.SysProcAttr, sig syscall.Signal) {}

// scan approximates the run by its process group where /proc is missing.
func (g procGroup) scan() (inGroup, outside []int) {
	if g.pgid > 0 && syscall.Kill(-g.pgid, 0) == nil {
		return []int{g.pgid}, nil
	}
	return nil, nil
}

// contains reports whether pid is alive and in the run's process group.
func (g procGroup) contains(pid int) bool {
	pgrp, err := syscall.Getpgid(pid)
	return err == nil && g.pgid > 0 && pgrp == g.pgid
}

// Without /proc, escaped processes are not looked for.
func becomeSubreaper() {}

// freeSpace is not measured here: a full disk shows only where the tool's own writes fail.
var freeSpace = func(string) (uint64, error) { return 1, nil }

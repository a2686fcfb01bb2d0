package proc

import (
	"errors"
	"os"
	"strings"
	"syscall"
)

// Entry is what /proc/<pid>/stat says of a process.
type Entry struct {
	State byte
	PPID  int
	Pgrp  int
	Start uint64 // clock ticks after boot
}

// Running reports whether a process in state (Entry.State) still runs: not a zombie, not dead.
func Running(state byte) bool { return state != 'Z' && state != 'X' && state != 'x' }

// Exists reports whether pid names a process (one this process may not signal counts).
func Exists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// BootID is this boot's /proc/sys/kernel/random/boot_id; "" where there is none.
func BootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

//go:build unix

package runner

import (
	"os"
	"runtime"
	"strconv"
	"syscall"
)

// closeOnExecAll marks every descriptor past stderr close-on-exec before a launch, so that the repro (and the
// reaper) inherit only their stdin, stdout and stderr. Go opens its own descriptors close-on-exec, but not the
// ones the tool got from its parent (a pipe of the shell that started it) nor ones a library opened without the
// flag (the TUI's terminal reader opens an epoll instance so): those went on into the repro and its children,
// which could hold the parent's pipeline open after the tool ended.
func closeOnExecAll() {
	dir := "/dev/fd"
	if runtime.GOOS == "linux" {
		dir = "/proc/self/fd"
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}

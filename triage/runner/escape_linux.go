package runner

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// becomeSubreaper makes the tool the child subreaper of its descendants (PR_SET_CHILD_SUBREAPER): a process
// of a run whose parent exits becomes the tool's child, not init's, whatever its session or environment; scan
// finds it among the tool's children and the tool reaps it.
var becomeSubreaper = sync.OnceFunc(func() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })

// reapOrphan collects the exit status of a zombie the tool adopted.
func reapOrphan(pid int) {
	var ws syscall.WaitStatus
	_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
}

// writesTo reports whether pid has one of the files open for writing.
func writesTo(pid int, files []os.FileInfo) bool {
	if len(files) == 0 {
		return false
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	d, err := os.Open(dir + "fd")
	if err != nil {
		return false
	}
	fds, _ := d.Readdirnames(-1)
	d.Close()
	for _, fd := range fds {
		st, err := os.Stat(dir + "fd/" + fd)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		for _, o := range files {
			if os.SameFile(st, o) && openForWriting(dir+"fdinfo/"+fd) {
				return true
			}
		}
	}
	return false
}

// openForWriting reads the access mode of an open file from its fdinfo ("flags:\t0100001").
func openForWriting(fdinfo string) bool {
	data, err := os.ReadFile(fdinfo)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
			return err == nil && flags&(syscall.O_WRONLY|syscall.O_RDWR) != 0
		}
	}
	return false
}

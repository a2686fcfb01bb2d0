//go:build unix

package runner

import (
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// hangups carries a hang-up that did not come as a signal to KillAllOnSignals' handler, when one is waiting.
var hangups = make(chan os.Signal)

// HangUp handles a lost terminal as SIGHUP (cancel every live run, then exit 129), when KillAllOnSignals is on;
// otherwise it does nothing.
func HangUp() {
	select {
	case hangups <- syscall.SIGHUP:
	default:
	}
}

// WatchTerminal calls HangUp once the terminal f stands for is gone: its other end closed (a read gets EOF or
// EIO; poll says POLLHUP or POLLERR), whether or not a SIGHUP reached the tool (a parent that ignores HUP, a
// terminal emulator that closes without one). stop ends the watch.
func WatchTerminal(f *os.File) (stop func()) {
	rc, err := f.SyscallConn()
	if err != nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			var lost bool
			cerr := rc.Control(func(fd uintptr) {
				fds := []unix.PollFd{{Fd: int32(fd)}} // no events asked: only hang-ups and errors wake it
				if n, err := unix.Poll(fds, 200); err == nil && n > 0 {
					lost = fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0
				}
			})
			if cerr != nil { // f was closed: nothing left to watch
				return
			}
			if lost {
				HangUp()
				return
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

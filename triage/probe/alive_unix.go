//go:build unix

package probe

import (
	"errors"
	"syscall"
)

// alive reports whether pid runs and, when both start times are known, is
// the process that wrote the marker.
func alive(pid int, markerStart string) bool {
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if now := startTime(pid); markerStart != "" && now != "" && now != markerStart {
		return false
	}
	return true
}

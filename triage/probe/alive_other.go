//go:build !unix

package probe

// alive: without Unix signals there is nothing to send SIGUSR1 to.
func alive(pid int, markerStart string) bool { return false }

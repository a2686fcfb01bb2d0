//go:build !linux

package proc

// Stat: there is no /proc here.
func Stat(int) (Entry, bool) { return Entry{}, false }

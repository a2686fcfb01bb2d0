//go:build !amd64 || purego

package logparse

// useLineEnd: no one-pass lineEnd here; Write scans each chunk for '\r' and for ESC apart (writeScanned).
var useLineEnd = false

func lineEnd(b []byte) (nl int, special bool) { return lineEndGeneric(b) }

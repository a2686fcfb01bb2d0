package logparse

import "bytes"

// lineEnd is the index of the first '\n' of b (-1 when there is none) and whether a '\r' or an ESC byte comes
// before it (in all of b when there is no newline): what Write needs of a line, in one pass over its bytes.
// lineEndGeneric is its definition; the amd64 version reads 32 bytes a step.
func lineEndGeneric(b []byte) (nl int, special bool) {
	nl = bytes.IndexByte(b, '\n')
	line := b
	if nl >= 0 {
		line = b[:nl]
	}
	return nl, hasSpecial(line)
}

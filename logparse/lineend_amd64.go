//go:build amd64 && !purego

package logparse

import "golang.org/x/sys/cpu"

// useLineEnd says lineEnd is the one pass of Write: AVX2 finds a line's newline and its '\r' and ESC bytes at
// once, 32 bytes a step. Without it Write scans each chunk for '\r' and for ESC apart (writeScanned).
var useLineEnd = cpu.X86.HasAVX2

// lineEndAVX2 is lineEnd (lineend.go).
//
//go:noescape
func lineEndAVX2(b []byte) (nl int, special bool)

func lineEnd(b []byte) (nl int, special bool) { return lineEndAVX2(b) }

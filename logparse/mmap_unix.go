//go:build unix

package logparse

import (
	"io"
	"os"
	"runtime/debug"
	"syscall"

	"golang.org/x/sys/unix"
)

// mapWindow is how much of a file one part maps at a time: memory stays bounded on any file size.
const mapWindow = 8 << 20

// afterMap, when set, runs between mapping a window and reading it (tests truncate the file there).
var afterMap func()

// feedMapped parses bytes [start, end) of f through read-only memory maps of at most mapWindow bytes; it
// reports false when mapping is not possible (the caller then reads). changed reports that the file shrank
// under the maps (truncated or rewritten while being read: touching a page past its end faults): what was
// read before is parsed, the rest of the part is not.
func feedMapped(p *Parser, f *os.File, start, end int64) (mapped, changed bool) {
	page := int64(os.Getpagesize())
	for off := start; off < end; {
		base := off - off%page
		n := min(end-base, mapWindow)
		b, err := syscall.Mmap(int(f.Fd()), base, int(n), syscall.PROT_READ, syscall.MAP_SHARED)
		if err != nil {
			if off == start {
				return false, false
			}
			// cannot happen on a regular file that mapped before; read the rest instead
			_ = feed(p, io.NewSectionReader(f, off, end-off))
			return true, false
		}
		_ = unix.Madvise(b, unix.MADV_SEQUENTIAL) // a hint; syscall has no Madvise on darwin
		if afterMap != nil {
			afterMap()
		}
		faulted := writeMapped(p, b[off-base:])
		_ = syscall.Munmap(b)
		if faulted {
			p.endLine()
			return true, true
		}
		off = base + n
	}
	p.endLine()
	return true, false
}

// writeMapped feeds mapped bytes to p; it reports true when a page could not be read (the file shrank under
// the map): the fault is turned into a panic in this goroutine and recovered here.
func writeMapped(p *Parser, data []byte) (faulted bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if e := recover(); e != nil {
			if _, ok := e.(interface{ Addr() uintptr }); !ok {
				panic(e)
			}
			faulted = true
		}
	}()
	for len(data) > 0 {
		k := min(len(data), 64<<10)
		p.Write(data[:k])
		data = data[k:]
	}
	return false
}

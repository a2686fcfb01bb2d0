//go:build unix

package logparse

import (
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// mapWindow is how much of a file one part maps at a time: memory stays bounded on any file size.
const mapWindow = 8 << 20

// feedMapped parses bytes [start, end) of f through read-only memory maps of at most mapWindow bytes;
// it reports false when mapping is not possible (the caller then reads).
func feedMapped(p *Parser, f *os.File, start, end int64) bool {
	page := int64(os.Getpagesize())
	for off := start; off < end; {
		base := off - off%page
		n := min(end-base, mapWindow)
		b, err := syscall.Mmap(int(f.Fd()), base, int(n), syscall.PROT_READ, syscall.MAP_SHARED)
		if err != nil {
			if off == start {
				return false
			}
			// cannot happen on a regular file that mapped before; read the rest instead
			_ = feed(p, io.NewSectionReader(f, off, end-off))
			return true
		}
		_ = unix.Madvise(b, unix.MADV_SEQUENTIAL) // a hint; syscall has no Madvise on darwin
		data := b[off-base:]
		for len(data) > 0 {
			k := min(len(data), 64<<10)
			p.Write(data[:k])
			data = data[k:]
		}
		_ = syscall.Munmap(b)
		off = base + n
	}
	p.endLine()
	return true
}

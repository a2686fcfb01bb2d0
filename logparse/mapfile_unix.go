//go:build unix

package logparse

import (
	"os"
	"runtime/debug"
	"syscall"

	"golang.org/x/sys/unix"
)

// MapFile hands the first size bytes of f to fn in order, through read-only memory maps of at most mapWindow
// bytes each (memory stays bounded on any file size; nothing is copied). A slice fn gets is valid only during
// that call. mapped is false when f cannot be mapped (the caller then reads it); changed reports that the file
// shrank under the maps (a page past its new end faults): fn got what was read before, and no more.
func MapFile(f *os.File, size int64, fn func([]byte)) (mapped, changed bool) {
	for off := int64(0); off < size; {
		n := min(size-off, mapWindow)
		b, err := syscall.Mmap(int(f.Fd()), off, int(n), syscall.PROT_READ, syscall.MAP_SHARED)
		if err != nil {
			if off == 0 {
				return false, false
			}
			// cannot happen on a regular file that mapped before: the rest is read instead
			buf := make([]byte, min(size-off, 256<<10))
			for off < size {
				k, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
				if k > 0 {
					fn(buf[:k])
				}
				if err != nil {
					return true, true
				}
				off += int64(k)
			}
			return true, false
		}
		_ = unix.Madvise(b, unix.MADV_SEQUENTIAL) // a hint; syscall has no Madvise on darwin
		faulted := handMapped(b, fn)
		_ = syscall.Munmap(b)
		if faulted {
			return true, true
		}
		off += n // mapWindow is a multiple of the page size: every window starts on a page
	}
	return true, false
}

// handMapped calls fn with mapped bytes; it reports true when a page could not be read (the file shrank under
// the map): the fault is turned into a panic in this goroutine and recovered here.
func handMapped(b []byte, fn func([]byte)) (faulted bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if e := recover(); e != nil {
			if _, ok := e.(interface{ Addr() uintptr }); !ok {
				panic(e)
			}
			faulted = true
		}
	}()
	fn(b)
	return false
}

//go:build unix

package logparse

import (
	"os"
	"syscall"
)

// fileID is what tells a file from another: its device and inode.
type fileID struct{ dev, ino uint64 }

func idOf(st os.FileInfo) fileID {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return fileID{uint64(s.Dev), uint64(s.Ino)}
	}
	return fileID{}
}

package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"time"
)

// DiskFullError is a write that failed because the disk is full: the path it was writing and the error.
type DiskFullError struct {
	Path string
	Err  error
}

func (e *DiskFullError) Error() string {
	return fmt.Sprintf("disk full: %s; the run's output so far is kept, what came after is lost", diskFullText(e.Path))
}

func (e *DiskFullError) Unwrap() error { return e.Err }

func diskFullText(path string) string {
	return "no space left on device (ENOSPC) writing " + path
}

// reportError emits a problem of the run. A full disk is recorded in the meta (the first path it hit) and said
// once, as a DiskFullError: the tail meets it again on every read.
func (r *Run) reportError(err error) {
	if errors.Is(err, syscall.ENOSPC) {
		path := r.Dir
		var pe *fs.PathError
		if errors.As(err, &pe) {
			path = pe.Path
		}
		if !r.noteDiskFull(path) {
			return
		}
		err = &DiskFullError{Path: path, Err: err}
	}
	r.sink(Event{RunID: r.ID, Kind: EventError, Time: time.Now(), Err: err})
}

// noteDiskFull records a full disk met writing path; it reports false when one was recorded already.
func (r *Run) noteDiskFull(path string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.meta.DiskFull != "" {
		return false
	}
	r.meta.DiskFull = diskFullText(path)
	return true
}

// checkDiskAtEnd tells a full disk the tool itself never wrote to: the repro's own writes to stdout.log and
// stderr.log failed (the kernel writes them; only the free space shows it).
func (r *Run) checkDiskAtEnd() {
	if free, err := freeSpace(r.Dir); err == nil && free == 0 {
		r.reportError(&fs.PathError{Op: "write", Path: r.Dir, Err: syscall.ENOSPC})
	}
}

package runner

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"
)

// tailInterval is how often the tail reads new bytes of stdout.log and
// stderr.log.
const tailInterval = 50 * time.Millisecond

// maxBatch bounds one read (and so one EventOutput).
const maxBatch = 1 << 20

// tailer follows the two files the kernel writes the repro's output to and
// copies what it reads to combined.log, one poll after another: what the two
// streams wrote within one poll (tailInterval) keeps each stream's order but
// not the order between them (the stdout batch comes first), since the two
// files carry no time of their own.
type tailer struct {
	streams  [2]string
	files    [2]*os.File
	combined *os.File
	buf      []byte
}

func openTailer(dir string) (*tailer, error) {
	t := &tailer{streams: [2]string{"stdout", "stderr"}, buf: make([]byte, 64<<10)}
	for i, s := range t.streams {
		f, err := os.Open(filepath.Join(dir, s+".log"))
		if err != nil {
			t.close()
			return nil, err
		}
		t.files[i] = f
	}
	f, err := os.OpenFile(filepath.Join(dir, "combined.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.close()
		return nil, err
	}
	t.combined = f
	return t, nil
}

// pump reads what is new in each stream (up to maxBatch each) and hands every
// batch to emit. It returns the number of bytes read.
func (t *tailer) pump(emit func(stream string, data []byte)) (int, error) {
	total := 0
	var errs []error
	for i, f := range t.files {
		var batch []byte
		for len(batch) < maxBatch {
			n, err := f.Read(t.buf)
			batch = append(batch, t.buf[:n]...)
			if err != nil || n == 0 {
				if err != nil && !errors.Is(err, io.EOF) {
					errs = append(errs, err)
				}
				break
			}
		}
		if len(batch) == 0 {
			continue
		}
		total += len(batch)
		if _, err := t.combined.Write(batch); err != nil {
			errs = append(errs, err)
		}
		emit(t.streams[i], batch)
	}
	return total, errors.Join(errs...)
}

func (t *tailer) close() {
	for _, f := range append(t.files[:], t.combined) {
		if f != nil {
			f.Close()
		}
	}
}

package logparse

import (
	"cmp"
	"strconv"
)

// CompileID is Dynamo's "[F/C]", "[F/C_A]" or "[!N/F/C]" id. Frame is -1 when absent.
type CompileID struct {
	Autograd int // compiled-autograd id after '!', -1 when absent
	Frame    int // frame id, -1 when absent
	Compile  int // how many times the frame compiled before
	Attempt  int // restart attempt (the _A suffix), 0 when absent
}

// NoCompileID is the zero value for "no compile id".
var NoCompileID = CompileID{Autograd: -1, Frame: -1}

// Valid reports whether the id was present.
func (c CompileID) Valid() bool { return c.Frame >= 0 }

// Compare orders compile ids by frame, then compile, then attempt (-1, 0, +1), the order the frames compiled in
// within a process. The compiled-autograd id does not count: ids that differ only in it compare equal. Within one
// process a frame's compile counter never repeats, so such ids come from different processes (a rank restarted,
// two files of one rank), and there the callers keep the one they saw first: triage's cidLess (the earliest and
// latest id of a rank, the first compile where ranks diverge, the order of automatic-dynamic candidates) reads
// ties so, and counting the autograd id would change which id those reports show (triage/cid_order_test.go). A
// caller that needs a total order breaks ties itself (the trace's ShapesTraced records: logparse/trace/shapes.go).
func (c CompileID) Compare(o CompileID) int {
	if c.Frame != o.Frame {
		return cmp.Compare(c.Frame, o.Frame)
	}
	if c.Compile != o.Compile {
		return cmp.Compare(c.Compile, o.Compile)
	}
	return cmp.Compare(c.Attempt, o.Attempt)
}

func (c CompileID) String() string { return string(c.Append(make([]byte, 0, 16))) }

// Append appends the id as String words it to b (nothing when it is not Valid).
func (c CompileID) Append(b []byte) []byte {
	if c.Frame < 0 {
		return b
	}
	if c.Autograd >= 0 {
		b = append(strconv.AppendInt(append(b, '!'), int64(c.Autograd), 10), '/')
	}
	b = append(strconv.AppendInt(b, int64(c.Frame), 10), '/')
	b = strconv.AppendInt(b, int64(c.Compile), 10)
	if c.Attempt > 0 {
		b = strconv.AppendInt(append(b, '_'), int64(c.Attempt), 10)
	}
	return b
}

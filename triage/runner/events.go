package runner

import (
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// EventKind says what happened to a run.
type EventKind int

// Event kinds.
const (
	EventOutput     EventKind = iota // new bytes on Stream ("stdout" or "stderr"): one event per read batch
	EventStalled                     // no output for Spec.Stall (Since = last output)
	EventResumed                     // output again after a stall
	EventExited                      // the run is over (Meta set)
	EventRelaunched                  // a new run replaces this one (RunID = the new run; Note says why)
	EventError                       // something went wrong (Err set)
)

func (k EventKind) String() string {
	switch k {
	case EventOutput:
		return "output"
	case EventStalled:
		return "stalled"
	case EventResumed:
		return "resumed"
	case EventExited:
		return "exited"
	case EventRelaunched:
		return "relaunched"
	case EventError:
		return "error"
	}
	return "unknown"
}

// Event is what Start's sink receives. Events of one run arrive in order from
// a single goroutine; the sink must not block for long.
type Event struct {
	RunID  int
	Kind   EventKind
	Stream string // "stdout" | "stderr" for EventOutput
	Data   []byte // EventOutput: the bytes read (owned by the receiver)
	File   string // EventOutput: the file they were read from, where they follow the stream's earlier bytes
	Time   time.Time
	Since  time.Time  // EventStalled: last output
	Meta   *runs.Meta // EventExited: final meta; EventRelaunched: the new run's meta at start
	Err    error
	Note   string
}

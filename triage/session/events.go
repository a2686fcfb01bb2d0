package session

import "github.com/torchtriage/torchtriage/triage/runner"

// What the runner reports of a live run, as the session hands it on (Note.Kind; the UI never imports the runner).
type (
	EventKind = runner.EventKind
	// Event is what the runner reports of a run (output, stall, exit, …).
	Event = runner.Event
)

// Event kinds (what a Note says happened).
const (
	EventOutput     = runner.EventOutput
	EventStalled    = runner.EventStalled
	EventResumed    = runner.EventResumed
	EventExited     = runner.EventExited
	EventRelaunched = runner.EventRelaunched
	EventError      = runner.EventError
)

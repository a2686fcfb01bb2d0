package triage

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/triage/text"

	"github.com/torchtriage/torchtriage/logparse"
)

// FirstFailure is the failure the rest followed from, when the inputs can tell: in a torchrun job one rank's
// error makes the others fail (NCCL aborts, SIGTERM), and torchrun's ChildFailedError is only a summary.
type FirstFailure struct {
	ErrorSummary
	// By says how it was picked: "root_cause" (torchrun's "Root Cause (first observed failure)" names the
	// rank), "first_in_log" (the earliest fatal error in the one input that holds them), or "unknown_order"
	// (several inputs hold errors and nothing says which came first: this is only the first one read).
	By string `json:"by"`
	// Of is how many processes died of an error in all (this one among them).
	Of int `json:"of"`
}

// failureLog keeps the fatal errors (compile and runtime) in the order they arrived and what torchrun's summary
// named.
type failureLog struct {
	events    []ErrorSummary
	rootCause int // the rank torchrun's first ChildFailedError summary names as root cause; -1 when none
}

// noteSummary takes the root-cause rank of torchrun's ChildFailedError summary (an exception record).
func (l *failureLog) noteSummary(r *logparse.Record) {
	if r.Error != nil && r.Error.Summary && l.rootCause < 0 {
		l.rootCause = r.Error.RootCauseRank
	}
}

// first picks the first failure; nil when no process died of an error.
func (l *failureLog) first() *FirstFailure {
	if len(l.events) == 0 {
		return nil
	}
	if l.rootCause >= 0 {
		for _, e := range l.events {
			if e.Rank == l.rootCause {
				return &FirstFailure{ErrorSummary: one(e), By: "root_cause", Of: len(l.events)}
			}
		}
	}
	inputs := map[string]bool{}
	for _, e := range l.events {
		inputs[e.Input] = true
	}
	by := "first_in_log"
	if len(inputs) > 1 {
		by = "unknown_order"
	}
	return &FirstFailure{ErrorSummary: one(l.events[0]), By: by, Of: len(l.events)}
}

// one makes an event a group of one.
func one(e ErrorSummary) ErrorSummary {
	e.Records, e.Ranks = 1, []int{}
	if e.Rank >= 0 {
		e.Ranks = []int{e.Rank}
	}
	return e
}

// Text words the first failure in one line: who, what, and how that was known.
func (f *FirstFailure) Text() string {
	if f == nil {
		return ""
	}
	what := f.Class
	if m := strings.TrimSpace(f.Message); m != "" {
		what += ": " + text.OneLine(ErrorGist(m), text.TitleMax)
	}
	if f.Cause != "" {
		what += " (caused by " + text.OneLine(f.Cause, text.TitleMax) + ")"
	}
	if f.TorchLogs { // the place is the program's `import torch`; the cause is the setting
		what += " (raised by torch reading TORCH_LOGS at import: the setting, not the program)"
	}
	if f.File != "" {
		what += fmt.Sprintf(" (%s:%d)", f.File, f.Line)
	}
	who := "the process"
	if f.Of > 1 {
		who = "a process"
	}
	if f.Rank >= 0 {
		who = fmt.Sprintf("rank %d", f.Rank)
	}
	switch {
	case f.Of == 1:
		return who + " failed: " + what
	case f.By == "root_cause":
		return who + " failed first (torchrun's root cause): " + what
	case f.By == "first_in_log":
		return who + " failed first in the log: " + what
	}
	return who + " failed (several logs hold errors; which came first is not known): " + what
}

package runner

import (
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// watchdog notices when a run prints nothing for longer than stall. Output the tool provoked is not the
// program's progress: the stack dump it asked for (see provoked) and whatever follows its own signals once it
// began stopping the run (see stopping) neither end a stall nor move the last output.
type watchdog struct {
	stall     time.Duration // <= 0: off
	last      time.Time     // the program's last output (or start)
	stalled   bool
	events    []runs.StallEvent
	recheckAt time.Time // while stalled and compiling: when to ask again whether it still compiles

	dumpUntil time.Time // output before this is the requested stack dump's
	dumpEnd   time.Time // a dump's output never extends dumpUntil past this
	halting   bool      // the tool is stopping the run (cancel, timeout, leftovers): output is its reaction
}

// A requested stack dump's output is what arrives within dumpSettle of the request or of the dump's previous
// output (torchrun's tee forwards the ranks' dumps a little later than its own), up to dumpMax after the
// request. The program's own output inside that window is taken for the dump's: its next output resumes.
const (
	dumpSettle = 2 * time.Second
	dumpMax    = 10 * time.Second
)

// provoked records that the tool asked the run for a stack dump at now.
func (w *watchdog) provoked(now time.Time) {
	w.dumpUntil, w.dumpEnd = now.Add(dumpSettle), now.Add(dumpMax)
}

// stopping records that the tool began stopping the run: from now on no output is the program's progress and
// no stall starts (the run's state is the tool's doing).
func (w *watchdog) stopping() { w.halting = true }

// end records the run's end at now: a stall still going ended with the run, without output of its own.
func (w *watchdog) end(now time.Time) {
	if w.stalled {
		w.stalled = false
		t := now
		w.events[len(w.events)-1].Ended = &t
	}
}

// compileRecheck is how often a stall that was compiling is checked again.
const compileRecheck = 5 * time.Second

// compiling records what was compiling when the current stall was detected (or rechecked); it reports whether
// that changed.
func (w *watchdog) compiling(what string, now time.Time) (changed bool) {
	if !w.stalled || len(w.events) == 0 {
		return false
	}
	ev := &w.events[len(w.events)-1]
	changed = ev.Compiling != what
	ev.Compiling = what
	w.recheckAt = time.Time{}
	if what != "" {
		w.recheckAt = now.Add(compileRecheck)
	}
	return changed
}

// recheck reports whether a compiling stall is due for another look.
func (w *watchdog) recheck(now time.Time) bool {
	return w.stalled && !w.recheckAt.IsZero() && !now.Before(w.recheckAt)
}

func newWatchdog(stall time.Duration, start time.Time) *watchdog {
	return &watchdog{stall: stall, last: start}
}

// output records new output at now; it reports whether this ends a stall.
func (w *watchdog) output(now time.Time) (resumed bool) {
	if w.halting {
		return false
	}
	if now.Before(w.dumpUntil) {
		w.dumpUntil = now.Add(dumpSettle)
		if w.dumpUntil.After(w.dumpEnd) {
			w.dumpUntil = w.dumpEnd
		}
		return false
	}
	w.last = now
	if !w.stalled {
		return false
	}
	w.stalled = false
	t := now
	w.events[len(w.events)-1].Resumed = &t
	return true
}

// check reports whether a stall starts at now.
func (w *watchdog) check(now time.Time) (fired bool) {
	if w.stall <= 0 || w.stalled || w.halting || now.Sub(w.last) < w.stall {
		return false
	}
	w.stalled = true
	w.events = append(w.events, runs.StallEvent{Since: w.last, Detected: now})
	return true
}

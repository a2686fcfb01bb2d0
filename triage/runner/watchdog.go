package runner

import "time"

// watchdog notices when a run prints nothing for longer than stall.
type watchdog struct {
	stall     time.Duration // <= 0: off
	last      time.Time     // last output (or start)
	stalled   bool
	events    []StallEvent
	recheckAt time.Time // while stalled and compiling: when to ask again whether it still compiles
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
	if w.stall <= 0 || w.stalled || now.Sub(w.last) < w.stall {
		return false
	}
	w.stalled = true
	w.events = append(w.events, StallEvent{Since: w.last, Detected: now})
	return true
}

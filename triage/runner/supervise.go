package runner

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"
)

// goneCheckInterval is how often, once the main process has exited, the
// supervisor looks for processes of the run that are still alive.
const goneCheckInterval = 100 * time.Millisecond

// supervise tails the output, runs the watchdog and the timeout, and
// finalizes the run once every process is gone. It is the only goroutine
// that emits the run's events.
func (r *Run) supervise(ctx context.Context) {
	if ctx == nil {
		ctx = context.Background()
	}
	r.ctx = ctx
	exited := make(chan error, 1)
	go func() { exited <- r.cmd.Wait() }()
	tick := time.NewTicker(tailInterval)
	defer tick.Stop()
	var timeout <-chan time.Time
	if r.spec.Timeout > 0 {
		t := time.NewTimer(r.spec.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	ctxDone := ctx.Done()
	var leaderExit, lastCheck time.Time
	var leftoverKill bool
	for {
		select {
		case <-tick.C:
			r.pumpOnce()
			if r.dog.check(time.Now()) {
				r.stalled()
			}
			if leaderExit.IsZero() || time.Since(lastCheck) < goneCheckInterval {
				continue
			}
			lastCheck = time.Now()
			if !r.group.alive() {
				r.finish()
				return
			}
			if !leftoverKill && time.Since(leaderExit) >= r.spec.grace() {
				leftoverKill = true
				r.escalate(1) // SIGTERM, then SIGKILL, the stragglers
			}
		case <-exited:
			exited = nil
			leaderExit, lastCheck = time.Now(), time.Now()
			if left := len(r.group.members()); left > 0 {
				r.mu.Lock()
				r.meta.Leftovers = left
				r.mu.Unlock()
			} else {
				r.finish()
				return
			}
		case <-timeout:
			timeout = nil
			r.mu.Lock()
			r.timedOut = true
			r.mu.Unlock()
			r.escalate(0)
		case <-ctxDone:
			ctxDone = nil
			r.Cancel()
		}
	}
}

func (r *Run) emitOutput(stream string, data []byte) {
	r.sink(Event{RunID: r.ID, Kind: EventOutput, Stream: stream, Data: data, Time: time.Now()})
}

// pumpOnce reads new output, feeds the watchdog and returns the bytes read
// (0 also on a read error, which is reported).
func (r *Run) pumpOnce() int {
	n, err := r.tail.pump(r.emitOutput)
	if err != nil {
		r.reportError(fmt.Errorf("tail: %w", err))
		return 0
	}
	if n > 0 && r.dog.output(time.Now()) {
		r.setState(StateRunning, EventResumed, time.Time{})
	}
	return n
}

func (r *Run) stalled() {
	r.setState(StateStalled, EventStalled, r.dog.last)
}

// setState records a running/stalled transition in meta.json and emits it.
func (r *Run) setState(s State, kind EventKind, since time.Time) {
	r.mu.Lock()
	r.meta.State = s
	r.meta.Stalls = append([]StallEvent(nil), r.dog.events...)
	m := r.meta
	r.mu.Unlock()
	if err := writeMeta(r.Dir, m); err != nil {
		r.reportError(err)
	}
	r.sink(Event{RunID: r.ID, Kind: kind, Time: time.Now(), Since: since})
}

// Cancel stops the run: SIGINT to every process of the run (Python prints
// its traceback), SIGTERM after Grace, SIGKILL after another Grace. It
// returns at once; Wait tells when it is over.
func (r *Run) Cancel() {
	r.mu.Lock()
	r.cancelled = true
	r.mu.Unlock()
	r.escalate(0)
}

// escalate runs the signal ladder from step (0 SIGINT, 1 SIGTERM, 2 SIGKILL)
// in the background, once per run.
func (r *Run) escalate(step int) {
	r.escalateOnce.Do(func() {
		go func() {
			ladder := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL}[step:]
			for _, sig := range ladder {
				r.group.signal(sig)
				if sig == syscall.SIGKILL {
					break
				}
				select {
				case <-r.gone:
					return
				case <-time.After(r.spec.grace()):
				}
			}
			for { // SIGKILL until nothing is left (forks racing the kill)
				select {
				case <-r.gone:
					return
				case <-time.After(goneCheckInterval):
					r.group.signal(syscall.SIGKILL)
				}
			}
		}()
	})
}

// finish drains the output, records the final meta, emits EventExited and,
// when torch rejected a TORCH_LOGS name, relaunches once without it.
func (r *Run) finish() {
	close(r.gone)
	for r.pumpOnce() > 0 {
	}
	r.tail.close()
	r.reap.close()
	unregisterLive(r)
	r.checkDiskAtEnd()

	end := time.Now()
	r.mu.Lock()
	m := &r.meta
	m.End, m.DurationS = &end, end.Sub(m.Start).Seconds()
	m.Stalls = append([]StallEvent(nil), r.dog.events...)
	ws, _ := r.cmd.ProcessState.Sys().(syscall.WaitStatus)
	signaled := ws.Signaled()
	if signaled {
		m.Signal = ws.Signal().String()
	} else {
		code := r.cmd.ProcessState.ExitCode()
		m.ExitCode = &code
	}
	switch {
	case r.timedOut:
		m.State = StateTimedOut
	case r.cancelled || signaled:
		m.State = StateKilled
	default:
		m.State = StateExited
	}
	r.mu.Unlock()

	next, nextSpec := r.planRelaunch()
	r.mu.Lock()
	final := r.meta
	r.mu.Unlock()
	if err := writeMeta(r.Dir, final); err != nil {
		r.reportError(err)
		r.mu.Lock()
		final.DiskFull = r.meta.DiskFull
		r.mu.Unlock()
	}
	r.sink(Event{RunID: r.ID, Kind: EventExited, Time: end, Meta: &final})
	if next != nil {
		r.relaunch(next, nextSpec)
	}
	close(r.done)
}

// exitSummary is a short human description of how a run ended.
func exitSummary(m Meta) string {
	switch {
	case m.State == StateFailedToStart:
		return "failed to start: " + m.Error
	case m.Signal != "":
		return fmt.Sprintf("%s (%s)", m.State, m.Signal)
	case m.ExitCode != nil:
		return fmt.Sprintf("%s (exit %d)", m.State, *m.ExitCode)
	}
	return string(m.State)
}

var errNoDumper = errors.New("no stack dumper registered for this run (launch it with the probe)")

// DumpStacks asks the run's Python processes that registered a SIGUSR1
// stack dumper (Spec.StackTargets) to print their stacks. Only those pids,
// when alive and part of the run, are signalled — never the whole group:
// SIGUSR1 kills a process without a handler. It returns how many were.
func (r *Run) DumpStacks() (int, error) {
	if r.spec.StackTargets == nil {
		return 0, errNoDumper
	}
	select {
	case <-r.gone:
		return 0, errors.New("the run is over")
	default:
	}
	pids := r.spec.StackTargets(r.Dir)
	if len(pids) == 0 {
		return 0, errNoDumper
	}
	n := 0
	for _, pid := range pids {
		if r.group.signalOne(pid, syscall.SIGUSR1) {
			n++
		}
	}
	if n == 0 {
		return 0, fmt.Errorf("none of the %d registered stack dumpers is alive in this run", len(pids))
	}
	return n, nil
}

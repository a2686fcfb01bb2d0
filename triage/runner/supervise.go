package runner

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"syscall"
	"time"

	"github.com/torchtriage/torchtriage/triage/runs"
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
			if now := time.Now(); r.dog.check(now) {
				r.stalled()
			} else if r.dog.recheck(now) {
				r.recheckCompiling(now)
			}
			if leaderExit.IsZero() || time.Since(lastCheck) < goneCheckInterval {
				continue
			}
			lastCheck = time.Now()
			if !r.group.alive() {
				r.finish()
				return
			}
			if !leftoverKill && time.Since(leaderExit) >= graceOf(r.spec) {
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
			r.escalateAfter(0, r.dumpBeforeStop())
		case <-ctxDone:
			ctxDone = nil
			r.Stop(stopCause(ctx))
		}
	}
}

func (r *Run) emitOutput(stream string, data []byte) {
	r.sink(Event{RunID: r.ID, Kind: EventOutput, Stream: stream, Data: data, File: filepath.Join(r.Dir, stream+".log"),
		Time: time.Now()})
}

// pumpOnce reads new output, feeds the watchdog and returns the bytes read
// (0 also on a read error, which is reported). What the tool did itself is read after the output: a stack
// dump request or a signal is recorded before it is sent, so output it caused is never taken for progress.
func (r *Run) pumpOnce() int {
	n, err := r.tail.pump(r.emitOutput)
	if err != nil {
		r.reportError(fmt.Errorf("tail: %w", err))
		return 0
	}
	if asked := r.dumpAsked.Swap(0); asked != 0 {
		r.dog.provoked(time.Unix(0, asked))
	}
	if r.halting.Load() {
		r.dog.stopping()
	}
	if n > 0 && r.dog.output(time.Now()) {
		r.setState(runs.StateRunning, EventResumed, time.Time{}, "")
	}
	return n
}

// stalled reports a stall; the event's note says what was compiling, when the probe says a compile is in
// progress (a compiling rank is not hung).
func (r *Run) stalled() {
	what := ""
	if r.spec.Compiling != nil {
		what = r.spec.Compiling(r.Dir, time.Now())
	}
	r.dog.compiling(what, time.Now())
	r.setState(runs.StateStalled, EventStalled, r.dog.last, what)
}

// recheckCompiling looks again at a stall that was compiling: when the compile ended without output, the
// stall is reported again, now with nothing compiling.
func (r *Run) recheckCompiling(now time.Time) {
	what := r.spec.Compiling(r.Dir, now)
	if r.dog.compiling(what, now) && what == "" {
		r.setState(runs.StateStalled, EventStalled, r.dog.last, "")
	}
}

// setState records a running/stalled transition in meta.json and emits it (note: what was compiling).
func (r *Run) setState(s runs.State, kind EventKind, since time.Time, note string) {
	r.mu.Lock()
	r.meta.State = s
	r.meta.Stalls = append([]runs.StallEvent(nil), r.dog.events...)
	m := r.meta
	r.mu.Unlock()
	if err := runs.WriteMeta(r.Dir, m); err != nil {
		r.reportError(err)
	}
	r.sink(Event{RunID: r.ID, Kind: kind, Time: time.Now(), Since: since, Note: note})
}

// Cancel stops the run: SIGINT to every process of the run (Python prints
// its traceback), SIGTERM after Grace, SIGKILL after another Grace. It
// returns at once; Wait tells when it is over. Meta's StopReason says the
// tool stopped it.
func (r *Run) Cancel() { r.Stop("cancelled") }

// stopCause is why a cancelled context stops the run: its cause's words when it was cancelled with one
// (context.WithCancelCause: "stopped by the user (backend ladder)"), else "the tool stopped its runs".
func stopCause(ctx context.Context) string {
	if err := context.Cause(ctx); err != nil && err != context.Canceled && err != context.DeadlineExceeded {
		return err.Error()
	}
	return "the tool stopped its runs"
}

// Stop is Cancel with the reason meta.json keeps ("cancelled", "relaunched
// with preset deep", "torchtriage got SIGTERM"): what the tool did itself is
// never read as the program's failure.
func (r *Run) Stop(reason string) {
	r.mu.Lock()
	if !r.cancelled {
		r.cancelled, r.stopFor = true, reason
	}
	r.mu.Unlock()
	r.escalate(0)
}

// escalate runs the signal ladder from step (0 SIGINT, 1 SIGTERM, 2 SIGKILL)
// in the background, once per run.
func (r *Run) escalate(step int) { r.escalateAfter(step, 0) }

// escalateAfter is escalate after a pause (the stack dump's time), cut short when every process is gone.
func (r *Run) escalateAfter(step int, pause time.Duration) {
	r.halting.Store(true)
	r.escalateOnce.Do(func() {
		go func() {
			if pause > 0 {
				select {
				case <-r.gone:
					return
				case <-time.After(pause):
				}
			}
			ladder := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL}[step:]
			for _, sig := range ladder {
				r.group.signal(sig)
				if sig == syscall.SIGKILL {
					break
				}
				select {
				case <-r.gone:
					return
				case <-time.After(graceOf(r.spec)):
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
	r.dog.end(end)
	r.mu.Lock()
	m := &r.meta
	m.End, m.DurationS = &end, end.Sub(m.Start).Seconds()
	m.Stalls = append([]runs.StallEvent(nil), r.dog.events...)
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
		m.State = runs.StateTimedOut
		m.StopReason = fmt.Sprintf("timed out after %s", r.spec.Timeout)
	case r.cancelled:
		m.State, m.StopReason = runs.StateKilled, r.stopFor
	case signaled:
		m.State = runs.StateKilled
	default:
		m.State = runs.StateExited
	}
	r.mu.Unlock()
	if r.spec.ImportedCode != nil { // the user modules the run imported, as the probe saw them at exit
		if mods := r.spec.ImportedCode(r.Dir); len(mods) > 0 {
			r.mu.Lock()
			code := r.meta.Code
			r.mu.Unlock()
			code = runs.KeepCode(r.Dir, r.spec.Dir, code, mods, true)
			r.mu.Lock()
			r.meta.Code = code
			r.mu.Unlock()
		}
	}

	next, nextSpec := r.planRelaunch()
	r.mu.Lock()
	final := r.meta
	r.mu.Unlock()
	if err := runs.WriteMeta(r.Dir, final); err != nil {
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
	r.dumpAsked.Store(time.Now().UnixNano()) // before the signal: the dump's output is not the program's progress
	n := signalEach(pids, func(pid int) bool { return r.group.signalOne(pid, syscall.SIGUSR1) }, time.Sleep)
	if n == 0 {
		return 0, fmt.Errorf("none of the %d registered stack dumpers is alive in this run", len(pids))
	}
	return n, nil
}

package session

import (
	"context"
	"os"
	"time"

	"github.com/torchtriage/torchtriage/triage/runner"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// RunToEnd launches spec as a stored run (with the probe when probe is set), waits for it and for its automatic
// relaunch, if any, and returns the directory and meta of the last run. onEvent (optional) hears relaunches and
// stalls as they happen. SIGINT/SIGTERM/SIGHUP to the tool stop the repro's whole process tree first.
func RunToEnd(store *runs.Store, spec runs.Spec, probe bool, onEvent func(Note)) (string, runs.Meta, error) {
	stop := runner.KillAllOnSignals(nil)
	defer stop()
	return RunToEndContext(context.Background(), store, spec, probe, onEvent)
}

// RunToEndContext is RunToEnd whose run is stopped (its process tree ended) when ctx is cancelled. It leaves the
// signals to its caller (the TUI has its own handler, which stops every run and restores the terminal).
func RunToEndContext(ctx context.Context, store *runs.Store, spec runs.Spec, probe bool, onEvent func(Note)) (string, runs.Meta, error) {
	if probe {
		spec = withProbe(spec)
	} else if spec.CollectiveTimeout > 0 {
		return "", runs.Meta{}, ErrCollectiveTimeoutNeedsProbe
	}
	run, err := runner.Start(ctx, store, spec, func(ev runner.Event) {
		if onEvent != nil && (ev.Kind == runner.EventRelaunched || ev.Kind == runner.EventStalled) {
			onEvent(Note{Kind: ev.Kind, At: ev.Time, Since: ev.Since, Text: ev.Note, Meta: ev.Meta})
		}
	})
	if err != nil {
		return "", runs.Meta{}, err
	}
	meta := run.WaitLast()
	dir := run.Dir
	if last := run.Relaunched(); last != nil {
		dir = last.Dir
	}
	return dir, meta, nil
}

// Shutdown waits up to timeout for every run's process tree to be gone (after Stop or a signal).
func Shutdown(timeout time.Duration) bool { return runner.Shutdown(timeout) }

// KillAllOnSignals makes SIGINT, SIGTERM and SIGHUP stop every run's process tree before onSignal (optional)
// runs; stop undoes it.
func KillAllOnSignals(onSignal func(os.Signal)) (stop func()) {
	return runner.KillAllOnSignals(onSignal)
}

// WatchTerminal treats the terminal f as hung up once its other end is gone (EOF or EIO, with or without a
// SIGHUP): every run's process tree is stopped and the tool exits as on SIGHUP, when KillAllOnSignals is on.
func WatchTerminal(f *os.File) (stop func()) { return runner.WatchTerminal(f) }

// MaybeRunReaper must be the first call of an entry point: in a process started as a run's reaper (the runner
// starts the tool's own binary for that) it does the reaper's work and exits; otherwise it enables reapers for
// the runs this process launches and returns.
func MaybeRunReaper() { runner.MaybeRunReaper() }

package runner

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

var live = struct {
	sync.Mutex
	runs map[*Run]struct{}
}{runs: map[*Run]struct{}{}}

func registerLive(r *Run) {
	live.Lock()
	live.runs[r] = struct{}{}
	live.Unlock()
}

func unregisterLive(r *Run) {
	live.Lock()
	delete(live.runs, r)
	live.Unlock()
}

func liveRuns() []*Run {
	live.Lock()
	defer live.Unlock()
	out := make([]*Run, 0, len(live.runs))
	for r := range live.runs {
		out = append(out, r)
	}
	return out
}

// Shutdown cancels every live run of this process (escalating SIGINT,
// SIGTERM, SIGKILL) and waits up to timeout for them to be gone and
// recorded. It reports whether all were. Call it before the tool exits.
func Shutdown(timeout time.Duration) bool { return shutdown("the tool exited", timeout) }

// shutdown is Shutdown with the reason each run records ("the tool exited", "torchtriage got SIGINT (Ctrl-C)").
func shutdown(why string, timeout time.Duration) bool {
	runs := liveRuns()
	for _, r := range runs {
		r.Stop(why)
	}
	deadline := time.After(timeout)
	for _, r := range runs {
		select {
		case <-r.done:
		case <-deadline:
			return false
		}
	}
	return true
}

// shutdownTimeout bounds the wait on a signal: two grace periods of the
// slowest live run plus a margin.
func shutdownTimeout() time.Duration {
	t := 2 * DefaultGrace
	for _, r := range liveRuns() {
		t = max(t, 2*graceOf(r.spec))
	}
	return t + 2*time.Second
}

// signalWhy is the stop reason of runs ended because the tool got sig: "torchtriage got SIGINT (Ctrl-C)" (the
// user's interrupt, not the program's doing).
func signalWhy(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "torchtriage got SIGINT (Ctrl-C)"
	case syscall.SIGTERM:
		return "torchtriage got SIGTERM"
	case syscall.SIGHUP:
		return "torchtriage got SIGHUP (its terminal hung up)"
	}
	return "torchtriage got " + sig.String()
}

// exitTimeout bounds how long a re-raised signal may take to end the process.
const exitTimeout = time.Second

// KillAllOnSignals makes the tool, when it receives SIGTERM, SIGHUP or
// SIGINT (or HangUp is called), cancel every live run (escalating), wait for
// them to be gone, call onSignal (may be nil; e.g. restore the terminal) and
// then die of that signal (exit 128+signal at once where the signal was
// ignored when the tool started: re-raising it would do nothing). stop undoes
// it.
func KillAllOnSignals(onSignal func(os.Signal)) (stop func()) {
	sigs := []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT}
	ignored := map[os.Signal]bool{}
	for _, s := range sigs {
		ignored[s] = signal.Ignored(s)
	}
	ch := make(chan os.Signal, 1)
	quit := make(chan struct{})
	signal.Notify(ch, sigs...)
	go func() {
		var sig os.Signal
		select {
		case sig = <-ch:
		case sig = <-hangups:
		case <-quit:
			return
		}
		shutdown(signalWhy(sig), shutdownTimeout())
		if onSignal != nil {
			onSignal(sig)
		}
		signal.Reset(sig)
		code := 1
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
			if !ignored[sig] {
				_ = syscall.Kill(os.Getpid(), s)
				time.Sleep(exitTimeout) // the signal ends the process
			}
		}
		os.Exit(code)
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(ch)
			close(quit)
		})
	}
}

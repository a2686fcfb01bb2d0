package tui

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// Mode is what the program shows.
type Mode int

// Modes.
const (
	ModeRun  = Mode(modeRun)  // torchtriage run -- CMD: launch the repro, relaunch with presets
	ModeDemo = Mode(modeDemo) // torchtriage demo: a recording replayed as the repro
	ModeOpen = Mode(modeOpen) // torchtriage open PATH…: saved logs, no relaunch
)

// Options configure the program; the command line builds them.
type Options struct {
	Mode          Mode
	Spec          runs.Spec // run, demo: the repro and its starting preset
	Store         *runs.Store
	Paths         []string // open
	Scenario      string   // demo
	Metric        *regexp.Regexp
	LowerIsBetter bool
	Probe         bool
	NoColor       bool
	LoadPlaybooks func() (*playbooks.Set, []error) // called beside the first frame; Warn gets its errors at the end
	Warn          func(error)
}

// LiveGC, when set (main: the collector's tuning, gc.go), is called once the playbooks are read.
var LiveGC func()

// Run runs the program until the user quits, then stops every run (SIGINT, SIGTERM, SIGKILL over their
// process trees) and waits for them. It returns the exit status.
func Run(o Options, stdin io.Reader, stdout, stderr io.Writer) int {
	opt := options{mode: mode(o.Mode), spec: o.Spec, store: o.Store, paths: o.Paths, scenario: o.Scenario,
		metric: o.Metric, lowerBetter: o.LowerIsBetter, probe: o.Probe, loadSet: o.LoadPlaybooks,
		color: !o.NoColor && os.Getenv("NO_COLOR") == ""}
	m := newModel(opt)
	go func() { // beside the first frame: it needs none; the start-up's garbage is collected as before
		if m.pbs(); LiveGC != nil {
			LiveGC()
		}
	}()
	// the tool's signal handler alone: bubbletea's, beside it, blocked its Kill (it waits for a handler that
	// cannot deliver its quit message any more)
	popts := []tea.ProgramOption{tea.WithOutput(stdout), tea.WithoutSignalHandler()}
	f, isFile := stdin.(*os.File)
	if !isFile || f != os.Stdin {
		popts = append(popts, tea.WithInput(stdin))
	}
	if isFile && (f != os.Stdin || term.IsTerminal(f.Fd())) { // the terminal read (else bubbletea opens its own)
		defer session.WatchTerminal(f)()
	}
	if !opt.color {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	} else if f, ok := stdout.(*os.File); ok && f == os.Stdout {
		// lipgloss detected stdout's profile at init (with `tmux info` under tmux): not a second time
		popts = append(popts, tea.WithColorProfile(lipgloss.Writer.Profile))
	}
	top, setProgram := withFirstFrameExit(m)
	p := tea.NewProgram(top, popts...)
	setProgram(p)
	finished := make(chan struct{})
	var signalled atomic.Bool
	stop := session.KillAllOnSignals(func(os.Signal) { // the runs are stopped; the handler then exits 128+signal
		signalled.Store(true)
		go p.Kill()
		select {
		case <-finished:
		case <-time.After(2 * time.Second):
		}
	})
	defer stop()
	_, err := p.Run()
	close(finished)
	if signalled.Load() {
		select {} // the signal handler ends the process
	}
	if _, errs := m.pbs(); o.Warn != nil { // what reading the playbooks warned of, now that the screen is gone
		for _, e := range errs {
			o.Warn(e)
		}
	}
	m.sess.Stop()
	session.Shutdown(15 * time.Second)
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		fmt.Fprintf(stderr, "torchtriage: %v\n", err)
		return 1
	}
	if opt.store != nil && len(m.runs) > 0 {
		all, _ := opt.store.List() // unreadable: the session's count alone
		fmt.Fprintln(stdout, exitLine(len(m.runs), opt.store.Dir, len(all), m.runs[len(m.runs)-1].name))
	}
	if opt.mode == modeRun && m.launchFailed != "" { // the repro never ran: not a success, as check says (exit 3)
		fmt.Fprintf(stderr, "torchtriage run: the repro did not start: %s\n", m.launchFailed)
		return exitDidNotStart
	}
	if why := lastDidNotStart(opt.mode, m.runs); why != "" {
		fmt.Fprintf(stderr, "torchtriage run: the repro %s\n", why)
		return exitDidNotStart
	}
	return 0
}

// lastDidNotStart is the verdict's summary when run's last launch started a process that ended before the
// program ran (torchrun whose python has no torch, a launcher that died): the analysis says did_not_start, as
// check's does; "" otherwise.
func lastDidNotStart(md mode, rs []*runView) string {
	if md != modeRun || len(rs) == 0 {
		return ""
	}
	r := rs[len(rs)-1]
	if !r.done || r.snap == nil || r.snap.analysis == nil || r.snap.analysis.Verdict.State != triage.StateDidNotStart {
		return ""
	}
	return r.snap.analysis.Verdict.Summary
}

// exitDidNotStart is run's status when its last launch did not start: check's "did not complete" (3).
const exitDidNotStart = 3

// exitLine is what the TUI prints on exit: the runs of this session, where they are, and how many the store holds
// in all where that is more ("torchtriage: this session stored 1 run in runs (2 runs there in all; last: 0002-breaks)").
func exitLine(session int, dir string, inStore int, last string) string {
	all := ""
	if inStore > session {
		all = plural(inStore, "run") + " there in all; "
	}
	return fmt.Sprintf("torchtriage: this session stored %s in %s (%slast: %s)", plural(session, "run"), dir, all, last)
}

package triage

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/runner"
)

// ExitDidNotComplete is `check -- CMD`'s exit status when the repro did not run to completion.
const ExitDidNotComplete = 3

// launchFlags are `check`'s flags for launching the repro itself (`check [gate flags] -- CMD…`).
type launchFlags struct {
	preset, store, launcher string
	timeout, stall          time.Duration
	nproc                   int
	shell, noProbe          bool
}

func (l *launchFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.preset, "preset", runner.DefaultPreset, "")
	fs.StringVar(&l.store, "store", runner.DefaultStoreDir, "")
	fs.StringVar(&l.launcher, "launcher", "", "")
	fs.DurationVar(&l.timeout, "timeout", 0, "")
	fs.DurationVar(&l.stall, "stall", 0, "")
	fs.IntVar(&l.nproc, "nproc", 0, "")
	fs.BoolVar(&l.shell, "shell", false, "")
	fs.BoolVar(&l.noProbe, "no-probe", false, "")
}

// splitCommand separates "… -- CMD ARGS…"; cmd is nil when there is no "--".
func splitCommand(args []string) (flags, cmd []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// runForCheck launches cmd as a stored run, waits for it (and for its automatic relaunch, if any) and returns the
// run dir and its meta. When the repro did not run to completion (completed), the caller exits
// ExitDidNotComplete unless the run's logs show a compile error that explains it.
func runForCheck(l launchFlags, cmd []string, stderr io.Writer) (dir string, meta runner.Meta, err error) {
	store, err := runner.OpenStore(l.store)
	if err != nil {
		return "", meta, err
	}
	spec := runner.Spec{Argv: cmd, Shell: l.shell, Nproc: l.nproc, Launcher: l.launcher, Preset: l.preset,
		Timeout: l.timeout, Stall: l.stall}
	if !l.noProbe {
		spec.Prepare, spec.StackTargets = probe.Install, probe.ReadyPIDs
	}
	stop := runner.KillAllOnSignals(nil)
	defer stop()
	run, err := runner.Start(context.Background(), store, spec, func(ev runner.Event) {
		switch ev.Kind {
		case runner.EventRelaunched:
			fmt.Fprintf(stderr, "torchtriage check: %s\n", ev.Note)
		case runner.EventStalled:
			fmt.Fprintf(stderr, "torchtriage check: no output since %s (stalled)\n", ev.Since.Format(time.TimeOnly))
		}
	})
	if err != nil {
		return "", meta, err
	}
	meta = run.WaitLast()
	dir = run.Dir
	if last := run.Relaunched(); last != nil {
		dir = last.Dir
	}
	return dir, meta, nil
}

// completed reports whether the repro ran to completion.
func completed(m runner.Meta) bool {
	return m.State == runner.StateExited && m.ExitCode != nil && *m.ExitCode == 0
}

// tellIncomplete prints why the run counts as not completed, where it is, and the end of its stderr.
func tellIncomplete(w io.Writer, dir string, m runner.Meta) {
	how := string(m.State)
	if m.ExitCode != nil {
		how = fmt.Sprintf("%s with code %d", how, *m.ExitCode)
	}
	if m.Signal != "" {
		how += " (" + m.Signal + ")"
	}
	fmt.Fprintf(w, "torchtriage check: the repro did not run to completion: %s; run dir %s\n", how, dir)
	b, _ := os.ReadFile(filepath.Join(dir, "stderr.log"))
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > 15 {
		lines = lines[len(lines)-15:]
	}
	if len(b) > 0 {
		fmt.Fprintln(w, "last lines of stderr:")
		for _, l := range lines {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
}

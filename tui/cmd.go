package tui

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/demo"
	"github.com/torchtriage/torchtriage/triage/runner"
)

const runUsage = `usage: torchtriage run [flags] -- CMD [ARGS...]

Launches the repro with a TORCH_LOGS preset and shows its graph breaks, recompiles, limit hits,
CUDA-graph skips and compile errors per rank, live, with what to do about each. r relaunches
with another preset; n walks the diagnose-compile-regression checklist. Runs are stored in
.torchtriage/runs (or --store). Needs a terminal: for CI use torchtriage report / check.

flags:
`

// CmdRun is `torchtriage run [flags] -- CMD ARGS…`.
func CmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	preset := fs.String("preset", runner.DefaultPreset, "TORCH_LOGS preset: "+strings.Join(runner.PresetNames(), ", "))
	nproc := fs.Int("nproc", 0, "ranks: wrap the command with torchrun --nproc-per-node N")
	launcher := fs.String("launcher", "", "torchrun or srun (default: torchrun when --nproc > 0)")
	shell := fs.Bool("shell", false, "run the command line under sh -c")
	timeout := fs.Duration("timeout", 0, "kill the repro after this long (0 = never)")
	stall := fs.Duration("stall", 0, "stall banner after this long without output (0 = 300s, negative = off)")
	metric := fs.String("metric", "", "regexp whose first group is the repro's metric (eager baseline comparison)")
	lower := fs.Bool("lower-is-better", false, "the --metric is a time: lower is better")
	store := fs.String("store", "", "run store directory (default .torchtriage/runs)")
	noProbe := fs.Bool("no-probe", false, "do not install the in-process probe (stack dumps, config parity)")
	noColor := fs.Bool("no-color", false, "no colours (NO_COLOR is honoured too)")
	fs.Usage = func() { fmt.Fprint(stderr, runUsage); fs.PrintDefaults() }
	if code, done := parse(fs, args); done {
		return code
	}
	argv := fs.Args()
	if len(argv) == 0 {
		fmt.Fprintln(stderr, "torchtriage run: give the repro's command after --, e.g. torchtriage run -- python repro.py")
		return 2
	}
	if _, ok := runner.PresetByName(*preset); !ok {
		fmt.Fprintf(stderr, "torchtriage run: unknown preset %q (known: %s)\n", *preset, strings.Join(runner.PresetNames(), ", "))
		return 2
	}
	var re *regexp.Regexp
	if *metric != "" {
		var err error
		if re, err = regexp.Compile(*metric); err != nil {
			fmt.Fprintf(stderr, "torchtriage run: --metric: %v\n", err)
			return 2
		}
	}
	if !isTerminal(stdout) {
		return notTerminal("run", stderr)
	}
	spec := runner.Spec{Argv: argv, Shell: *shell, Nproc: *nproc, Launcher: *launcher, Preset: *preset,
		Timeout: *timeout, Stall: *stall}
	opt := options{mode: modeRun, spec: spec, metric: re, lowerBetter: *lower, probe: !*noProbe}
	return start(opt, *store, *noColor, stdin, stdout, stderr)
}

// CmdDemo is `torchtriage demo [--scenario NAME] [--speed X]`: the session on a recording of real PyTorch output.
func CmdDemo(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var names []string
	for _, s := range demo.Scenarios() {
		names = append(names, s.Name)
	}
	scenario := fs.String("scenario", demo.DefaultScenario, "recording to replay: "+strings.Join(names, ", "))
	speed := fs.Float64("speed", 1, "replay speed (2 = twice as fast as recorded)")
	store := fs.String("store", "", "run store directory (default .torchtriage/runs)")
	noColor := fs.Bool("no-color", false, "no colours (NO_COLOR is honoured too)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: torchtriage demo [--scenario NAME] [--speed X]\n\n"+
			"The whole session on a replay of real PyTorch "+demo.TorchVersion+" output: no torch or GPU needed.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if code, done := parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "torchtriage demo: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if !containsStr(names, *scenario) {
		fmt.Fprintf(stderr, "torchtriage demo: unknown scenario %q (have: %s)\n", *scenario, strings.Join(names, ", "))
		return 2
	}
	if !(*speed > 0) {
		fmt.Fprintln(stderr, "torchtriage demo: --speed must be above 0")
		return 2
	}
	if !isTerminal(stdout) {
		return notTerminal("demo", stderr)
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "torchtriage demo: cannot find my own binary: %v\n", err)
		return 1
	}
	return start(demoOptions(exe, *scenario, *speed), *store, *noColor, stdin, stdout, stderr)
}

// demoOptions launch exe as `__demo-repro --scenario NAME`, without the probe, as torch 2.14.
func demoOptions(exe, scenario string, speed float64) options {
	spec := runner.Spec{Argv: []string{exe, "__demo-repro", "--scenario", scenario}, Preset: runner.DefaultPreset,
		TorchVersion: demo.TorchVersion}
	if speed != 1 {
		spec.Env = map[string]string{"TORCHTRIAGE_DEMO_SPEED": fmt.Sprint(speed)}
	}
	return options{mode: modeDemo, spec: spec, scenario: scenario}
}

// CmdOpen is `torchtriage open PATH…`: logs, run directories or TORCH_TRACE directories, without relaunching.
func CmdOpen(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("open", flag.ContinueOnError)
	fs.SetOutput(stderr)
	noColor := fs.Bool("no-color", false, "no colours (NO_COLOR is honoured too)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: torchtriage open [--no-color] PATH...\n\nBrowses logs, run directories or TORCH_TRACE "+
			"directories in the session's views (no relaunch).\n\nflags:\n")
		fs.PrintDefaults()
	}
	if code, done := parse(fs, args); done {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "torchtriage open: give at least one log file, run directory or TORCH_TRACE directory")
		return 2
	}
	for _, p := range fs.Args() {
		if _, err := os.Stat(p); err != nil && p != "-" {
			fmt.Fprintf(stderr, "torchtriage open: cannot read %s: %v\n", p, errors.Unwrap(err))
			return 1
		}
	}
	if !isTerminal(stdout) {
		return notTerminal("open", stderr)
	}
	return start(options{mode: modeOpen, paths: fs.Args()}, "", *noColor, stdin, stdout, stderr)
}

// parse parses flags; done with an exit code for --help and bad flags.
func parse(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, true
		}
		return 2, true
	}
	return 0, false
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

func notTerminal(cmd string, stderr io.Writer) int {
	fmt.Fprintf(stderr, "torchtriage %s: stdout is not a terminal; for CI and pipes use `torchtriage report PATH…` "+
		"(counts, JSON) or `torchtriage check` (the gate) instead\n", cmd)
	return 2
}

// start loads the playbooks and the store, runs the program, and on the way out stops every run.
func start(opt options, storeDir string, noColor bool, stdin io.Reader, stdout, stderr io.Writer) int {
	set, errs := playbooks.Load(playbooks.DefaultUserDir())
	for _, err := range errs {
		fmt.Fprintf(stderr, "torchtriage: playbook: %v\n", err)
	}
	if set == nil {
		fmt.Fprintln(stderr, "torchtriage: no playbooks could be loaded")
		return 1
	}
	opt.set = set
	opt.color = !noColor && os.Getenv("NO_COLOR") == ""
	if opt.mode != modeOpen {
		st, err := runner.OpenStore(storeDir)
		if err != nil {
			fmt.Fprintf(stderr, "torchtriage: %v\n", err)
			return 1
		}
		opt.store = st
	}
	m := newModel(opt)
	popts := []tea.ProgramOption{tea.WithOutput(stdout)}
	if f, ok := stdin.(*os.File); !ok || f != os.Stdin {
		popts = append(popts, tea.WithInput(stdin))
	}
	if !opt.color {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(m, popts...)
	finished := make(chan struct{})
	stop := runner.KillAllOnSignals(func(os.Signal) {
		p.Kill()
		select {
		case <-finished:
		case <-time.After(time.Second):
		}
	})
	defer stop()
	_, err := p.Run()
	close(finished)
	m.sess.stop()
	runner.Shutdown(15 * time.Second)
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		fmt.Fprintf(stderr, "torchtriage: %v\n", err)
		return 1
	}
	if opt.store != nil && len(m.runs) > 0 {
		last := m.runs[len(m.runs)-1]
		fmt.Fprintf(stdout, "torchtriage: %d run(s) stored in %s (last: %s)\n", len(m.runs), opt.store.Dir, last.name)
	}
	return 0
}

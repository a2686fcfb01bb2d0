package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/session"
)

// defaultCheckTimeout is check -- CMD's --timeout unless given: a gate in CI must end.
const defaultCheckTimeout = 30 * time.Minute

func newCheckCmd() *cobra.Command {
	var (
		o            gate.RunOptions
		baseline     string
		launch       launchFlags
		maxRerecords int
		tolerance    float64
	)
	cmd := &cobra.Command{
		Use:   "check [PATH... | -- CMD ARGS...]",
		Short: "The regression gate: exit 1 when breaks, recompiles, limit hits or rank disagreement exceed the rules",
		Long: "Reads logs like report (files, directories, a run's number) and fails when a rule is broken. With -- CMD it first launches the repro " +
			"(stored as a run under --store, like torchtriage run) and gates on what it printed.\n\n" +
			"Exit status: 0 passed; 1 a rule failed (one line per failure: what, where, which playbook); 2 usage " +
			"error or unreadable input; 3 the run did not complete (timed out, killed, exited non-zero, a process died " +
			"of a compile or runtime error, or the disk filled up) and no rule failed: what it never reached is not " +
			"shown, so passing would mean nothing; the run dir and the first failure (or the end of its stderr) are " +
			"printed and no baseline is written. A rule the run broke before it stopped still fails (exit 1), and the " +
			"result says the run did not complete (did_not_complete in JSON); 4 no evidence: the inputs hold no torch output, or not the logging the rules " +
			"need (graph_breaks/recompiles off, no compile time), so passing would mean nothing " +
			"(--allow-no-evidence turns this into a pass); with --expect-crash (a break-it test) 0 means the command crashed " +
			"before --timeout, 1 that it succeeded, hung or timed out; 128+N the tool itself got signal N (130: Ctrl-C, 143: " +
			"SIGTERM): the repro it launched is stopped first and its run records why.",
		Example: "  torchtriage check --max-graph-breaks 0 --no-compile-errors train.log\n" +
			"  torchtriage check --baseline base.json --format github -- python repro.py\n" +
			"  torchtriage check --expect-crash --timeout 5m -- python must_crash.py",
		RunE: func(cmd *cobra.Command, args []string) error {
			paths, repro := splitDash(cmd, args)
			switch {
			case repro != nil && len(paths) > 0:
				return usageErr(cmd, "give either log paths or -- CMD, not both")
			case repro != nil && len(repro) == 0:
				return usageErr(cmd, "no command after --")
			case repro == nil && len(paths) == 0:
				return usageErr(cmd, "no input given (a file, a directory or - for stdin), or -- CMD to launch a repro")
			case baseline != "" && baseline == o.WriteBaseline:
				return usageErr(cmd, "--baseline and --write-baseline name the same file")
			case o.Rules.ExpectCrash && repro == nil:
				return usageErr(cmd, "--expect-crash judges how a command it launches ends: check --expect-crash -- CMD")
			case o.Rules.ExpectCrash && o.WriteBaseline != "":
				return usageErr(cmd, "--expect-crash and --write-baseline: a run that is to crash makes no baseline")
			}
			if baseline != "" {
				b, err := gate.ReadBaseline(baseline)
				if err != nil {
					return usageErr(cmd, "%v", err)
				}
				o.Rules.Baseline = b
			}
			if err := ruleValues(cmd, &o.Rules, maxRerecords, launch.warmupSteps, tolerance); err != nil {
				return err
			}
			if !o.Rules.Rules() && o.WriteBaseline == "" {
				return usageErr(cmd, "no rule given (--max-graph-breaks, --max-recompiles, --no-limit-hits, --ranks-agree, --no-compile-errors, --no-cudagraph-skips, --max-cudagraph-rerecords, --max-compile-time, --max-compile-skew, --no-compile-after-warmup, --baseline, --write-baseline)")
			}
			paths, err := runPaths(cmd, paths, launch.store)
			if err != nil {
				return err
			}
			var ran *runs.Meta
			if repro != nil {
				spec, err := launch.spec(cmd, repro)
				if err != nil {
					return err
				}
				dir, meta, err := runRepro(cmd, launch, spec)
				if err != nil {
					return err
				}
				paths, ran = []string{dir}, &meta
			}
			rep, paths, err := load(cmd, paths, cmd.InOrStdin())
			if err != nil {
				return err
			}
			o.Rules.Command = runCommand(ran, paths)
			res, err := gate.Run(cmd.OutOrStdout(), cmd.ErrOrStderr(), checkInput(cmd, rep, paths, ran, runs.OptionalSteps(launch.warmupSteps)), o)
			var unwritable gate.BaselineError
			switch {
			case errors.As(err, &unwritable):
				return usageErr(cmd, "%v", err)
			case err != nil:
				return failErr(cmd, res.Exit, "%v", err)
			}
			return exitCode(res.Exit)
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&o.Rules.MaxGraphBreaks, "max-graph-breaks", -1, "at most N distinct graph breaks (by-design ones count only with --count-expected)")
	fs.IntVar(&o.Rules.MaxRecompiles, "max-recompiles", -1, "at most N recompiles (automatic dynamic's expected first one per dimension counts only with --count-expected)")
	fs.BoolVar(&o.Rules.NoLimitHits, "no-limit-hits", false, "no recompile-limit hit")
	fs.BoolVar(&o.Rules.RanksAgree, "ranks-agree", false, "every rank breaks and recompiles alike (and runs with the same settings, when probed)")
	fs.BoolVar(&o.Rules.NoCompileErrors, "no-compile-errors", false, "no process died of a compile error or a runtime error (an uncaught exception); a compile error the program caught and went on after does not fail it, and is counted apart ('0 compile errors (1 caught)')")
	fs.BoolVar(&o.Rules.NoCudagraphSkips, "no-cudagraph-skips", false, "no CUDA-graph skip, no non-cudagraphable partition (2.9+ prints the latter instead of skips) and no CUDA-graph warning to fix (pending backwards: calls that missed the fast path)")
	fs.IntVar(&maxRerecords, "max-cudagraph-rerecords", 0, "at most N CUDA-graph re-recordings (unset: no limit)")
	fs.BoolVar(&o.AllowNoEvidence, "allow-no-evidence", false, "pass (exit 0) rather than exit 4 when the inputs cannot show what the rules ask about")
	fs.BoolVar(&o.Rules.CountExpected, "count-expected", false, "count by-design breaks and expected recompiles too")
	fs.StringVar(&baseline, "baseline", "", "fail on any graph break, recompile reason class or CUDA-graph skip FILE does not have")
	fs.StringVar(&o.WriteBaseline, "write-baseline", "", "record this run as a baseline in FILE (with compile time per frame)")
	durationFlag(fs, &o.Rules.MaxCompileTime, "max-compile-time", "total compile time at most this long, all ranks (300 = 300s; TORCH_TRACE, the probe, or a vLLM log's own total)")
	durationFlag(fs, &o.Rules.MaxCompileSkew, "max-compile-skew", "slowest rank's compile time minus the fastest's at most this long")
	fs.Float64Var(&tolerance, "compile-time-tolerance", report.DefaultTolerance, "with --baseline: a frame's compile time may grow by this fraction (0.15 = 15%)")
	formatFlag(cmd, &o.Format, "text", "json", "github", "junit")
	fs.StringVar(&o.PathRoot, "path-root", "", gate.PathRootHelp)
	_ = cmd.MarkFlagDirname("path-root")
	fs.BoolVar(&o.Rules.NoCompileAfterWarmup, "no-compile-after-warmup", false, "nothing compiles past the warm-up (--warmup-steps): steps from optimizer.step() calls, else --step-marker; exit 4 when no step was seen")
	fs.BoolVar(&o.Rules.ExpectCrash, "expect-crash", false, "a break-it test: pass when the command ends with an error (a non-zero exit, an uncaught exception) before --timeout; fail when it succeeds, hangs or times out (with -- CMD)")
	launch.timeout = defaultCheckTimeout // CI never waits forever
	launch.register(cmd)
	return cmd
}

// runRepro launches the repro as a stored run and waits for it (and its automatic relaunch).
func runRepro(cmd *cobra.Command, l launchFlags, spec runs.Spec) (string, runs.Meta, error) {
	store, err := runs.OpenStore(l.store)
	if err != nil {
		return "", runs.Meta{}, failErr(cmd, exitUsage, "%v", err)
	}
	stderr, name := cmd.ErrOrStderr(), cmd.CommandPath()
	dir, meta, err := session.RunToEnd(store, spec, !l.noProbe, func(n session.Note) {
		switch n.Kind {
		case session.EventRelaunched:
			fmt.Fprintf(stderr, "%s: %s\n", name, n.Text)
		case session.EventStalled:
			if n.Text != "" {
				fmt.Fprintf(stderr, "%s: no output since %s, compiling: %s\n", name, n.Since.Format(time.TimeOnly), n.Text)
			} else {
				fmt.Fprintf(stderr, "%s: no output since %s (stalled)\n", name, n.Since.Format(time.TimeOnly))
			}
		}
	})
	var pe *fs.PathError
	if errors.Is(err, syscall.ENOSPC) && errors.As(err, &pe) {
		return "", meta, failErr(cmd, gate.ExitDidNotComplete, "disk full: no space left on device (ENOSPC) writing %s", pe.Path)
	}
	if err != nil {
		return "", meta, failErr(cmd, exitUsage, "%v", err)
	}
	fmt.Fprintf(stderr, "%s: run stored in %s\n", name, dir)
	return dir, meta, nil
}

// checkInput is what check gates: the inputs' analysis with the facts of the run launched (ran) or given, and where.
func checkInput(cmd *cobra.Command, rep *report.Report, paths []string, ran *runs.Meta, warmup *int) gate.Input {
	var run *report.RunFacts
	if ran != nil {
		run = session.RunFactsOf(*ran)
	} else {
		run = runFacts(paths)
	}
	run = run.WithWarmup(warmup) // check --warmup-steps judges a stored run with its own warm-up
	in := gate.Input{Analyze: func() *triage.Analysis {
		return triage.AnalyzeRun(rep, loadPlaybooks(cmd, playbooks.DefaultUserDir()), readProbes(cmd, paths), run)
	}}
	if run != nil {
		in.Dir = paths[0]
	}
	if ran != nil {
		in.DiskFull = ran.DiskFull
	}
	return in
}

// runCommand is the gated run's command as typed ("python3 repro.py"), of the run launched or given; "" for logs.
func runCommand(ran *runs.Meta, paths []string) string {
	if ran == nil && len(paths) == 1 {
		if m, err := runs.LoadRun(paths[0]); err == nil {
			ran = &m
		}
	}
	if ran == nil || len(ran.UserArgv) == 0 {
		return ""
	}
	return runs.ShellJoin(ran.UserArgv)
}

// ruleValues takes the rule flags whose values need more than their type says, and refuses a value the gate
// cannot honour: a rule given must gate on what it names, never vanish (a negative count or a zero time read as
// "no limit") nor become another value (a tolerance of 0 read as the default).
func ruleValues(cmd *cobra.Command, o *gate.Options, maxRerecords, warmup int, tolerance float64) error {
	given := cmd.Flags().Changed
	for _, c := range []struct {
		name string
		n    int
	}{{"max-graph-breaks", o.MaxGraphBreaks}, {"max-recompiles", o.MaxRecompiles}, {"max-cudagraph-rerecords", maxRerecords}, {"warmup-steps", warmup}} {
		if given(c.name) && c.n < 0 {
			return usageErr(cmd, "--%s must be 0 or more", c.name)
		}
	}
	if given("max-cudagraph-rerecords") {
		o.MaxCudagraphRerecords = &maxRerecords
	}
	for _, c := range []struct {
		name string
		d    time.Duration
	}{{"max-compile-time", o.MaxCompileTime}, {"max-compile-skew", o.MaxCompileSkew}} {
		if given(c.name) && c.d <= 0 {
			return usageErr(cmd, "--%s must be more than 0 (leave it out for no limit)", c.name)
		}
	}
	if given("compile-time-tolerance") {
		if !(tolerance >= 0) || math.IsInf(tolerance, 1) { // NaN fails every comparison
			return usageErr(cmd, "--compile-time-tolerance must be a number 0 or more (0.15 = 15%%)")
		}
		o.CompileTolerance = &tolerance
	}
	return nil
}

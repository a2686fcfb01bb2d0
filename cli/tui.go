package cli

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/demo"
	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/tui"
)

func newRunCmd() *cobra.Command {
	var launch launchFlags
	var metric string
	var lower, noColor bool
	cmd := &cobra.Command{
		Use:   "run [flags] -- CMD [ARGS...]",
		Short: "Launch your repro with a TORCH_LOGS preset and triage it live (the TUI)",
		Long: "Launches the repro with a TORCH_LOGS preset and shows its graph breaks, recompiles, limit hits, " +
			"CUDA-graph skips and compile errors per rank, live, with what to do about each. r relaunches with " +
			"another preset; n walks the diagnose-compile-regression checklist. Runs are stored in " +
			".torchtriage/runs (or --store). Needs a terminal: for CI use torchtriage report or check. Exits 3 when " +
			"the last launch did not start: not launched, or ended before the program ran (as check says), else 0.",
		Example: "  torchtriage run -- python repro.py\n  torchtriage run --nproc 2 --preset deep -- train.py --steps 3\n" +
			"  torchtriage run --metric 'step_ms: ([0-9.]+)' --lower-is-better -- python bench.py",
		RunE: func(cmd *cobra.Command, args []string) error {
			own, argv := splitDash(cmd, args)
			if len(own) > 0 || len(argv) == 0 {
				return usageErr(cmd, "give the repro's command after --, e.g. torchtriage run -- python repro.py")
			}
			spec, err := launch.spec(cmd, argv)
			if err != nil {
				return err
			}
			var re *regexp.Regexp
			if metric != "" {
				if re, err = regexp.Compile(metric); err != nil {
					return usageErr(cmd, "--metric: %v", err)
				}
			}
			return runTUI(cmd, tui.Options{Mode: tui.ModeRun, Spec: spec, Metric: re, LowerIsBetter: lower,
				Probe: !launch.noProbe, NoColor: noColor}, launch.store)
		},
	}
	launch.register(cmd)
	cmd.Flags().StringVar(&metric, "metric", "", "regexp whose first group is the repro's metric (eager vs compiled): the median of its matches after warm-up")
	cmd.Flags().BoolVar(&lower, "lower-is-better", false, "the --metric is a time: lower is better")
	noColorFlag(cmd, &noColor)
	return cmd
}

func newDemoCmd() *cobra.Command {
	var scenario, store string
	var speed float64
	var noColor bool
	var names []string
	for _, s := range demo.Scenarios() {
		names = append(names, s.Name)
	}
	cmd := &cobra.Command{
		Use:   "demo [flags]",
		Short: "The TUI on a built-in recording of real PyTorch output (no torch needed)",
		Long: "The whole session on a replay of real PyTorch " + demo.TorchVersion + " output: no torch or GPU " +
			"needed. Scenarios: " + strings.Join(names, ", ") + ".",
		Example: "  torchtriage demo\n  torchtriage demo --scenario r05_dist_c10d --speed 4",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !slices.Contains(names, scenario) {
				return usageErr(cmd, "--scenario: unknown scenario %q (have: %s)", scenario, strings.Join(names, ", "))
			}
			if !(speed > 0) {
				return usageErr(cmd, "--speed must be above 0")
			}
			exe, err := os.Executable()
			if err != nil {
				return failErr(cmd, exitFail, "cannot find my own binary: %v", err)
			}
			spec := runs.Spec{Argv: []string{exe, "__demo-repro", "--scenario", scenario},
				Preset: runs.DefaultPreset, TorchVersion: demo.TorchVersion, Demo: scenario,
				RecordedLogs: func(env []string) (string, bool) { return demo.RecordedTorchLogs(scenario, env) }}
			if speed != 1 {
				spec.Env = map[string]string{"TORCHTRIAGE_DEMO_SPEED": fmt.Sprint(speed)}
			}
			if store != "" {
				return runTUI(cmd, tui.Options{Mode: tui.ModeDemo, Spec: spec, Scenario: scenario, NoColor: noColor}, store)
			}
			tmp, err := os.MkdirTemp("", "torchtriage-demo-")
			if err != nil {
				return failErr(cmd, exitFail, "cannot make a temporary run store: %v", err)
			}
			err = runTUI(cmd, tui.Options{Mode: tui.ModeDemo, Spec: spec, Scenario: scenario, NoColor: noColor}, tmp)
			if runs, _ := os.ReadDir(tmp); len(runs) == 0 {
				os.Remove(tmp)
			} else {
				fmt.Fprintf(cmd.ErrOrStderr(), "torchtriage demo: its runs are in a temporary store, not ./.torchtriage:\n"+
					"  torchtriage log --store %s\n", tmp)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&scenario, "scenario", demo.DefaultScenario, "recording to replay")
	cmd.Flags().Float64Var(&speed, "speed", 1, "replay speed (2 = twice as fast as recorded)")
	cmd.Flags().StringVar(&store, "store", "", "run store directory (default: a new temporary directory, named at exit; never ./.torchtriage)")
	noColorFlag(cmd, &noColor)
	_ = cmd.RegisterFlagCompletionFunc("scenario", completeScenarios)
	_ = cmd.MarkFlagDirname("store")
	return cmd
}

func newOpenCmd() *cobra.Command {
	var noColor bool
	var store string
	cmd := &cobra.Command{
		Use:   "open [flags] PATH...",
		Short: "The TUI on existing logs, run dirs or TORCH_TRACE dirs (no relaunch)",
		Long: "Browses logs, run directories (or a run's number in --store: open 3) or TORCH_TRACE directories in the " +
			"session's views, without relaunching.",
		Args: needArgs(1, "log file, run directory or TORCH_TRACE directory"),
		RunE: func(cmd *cobra.Command, paths []string) error {
			paths, err := runPaths(cmd, paths, store)
			if err != nil {
				return err
			}
			if err := refuseStores(cmd, paths); err != nil {
				return err
			}
			for _, p := range paths {
				if p == "-" {
					return usageErr(cmd, "open reads files, not standard input: use torchtriage report - for a pipe")
				}
				if err := logparse.CheckPath(p); err != nil { // what report refuses, before the screen starts
					return failErr(cmd, exitUsage, "%v", err)
				}
			}
			return runTUI(cmd, tui.Options{Mode: tui.ModeOpen, Paths: paths, NoColor: noColor}, "")
		},
	}
	noColorFlag(cmd, &noColor)
	storeFlag(cmd, &store)
	return cmd
}

func noColorFlag(cmd *cobra.Command, p *bool) {
	cmd.Flags().BoolVar(p, "no-color", false, "no colours (NO_COLOR is honoured too)")
}

// runTUI checks that stdout is a terminal, opens the store, and runs the program (which reads the playbooks).
func runTUI(cmd *cobra.Command, o tui.Options, storeDir string) error {
	if !isTerminal(cmd.OutOrStdout()) {
		return usageErr(cmd, "stdout is not a terminal; for CI and pipes use `torchtriage report PATH…` "+
			"(counts, JSON) or `torchtriage check` (the gate) instead")
	}
	dir := playbooks.DefaultUserDir() // read beside the first frame; what they warn of is said when the screen is gone
	o.LoadPlaybooks = func() (*playbooks.Set, []error) { return playbooks.Load(dir) }
	o.Warn = func(err error) { warn(cmd, "playbook %v", err) }
	if o.Mode != tui.ModeOpen {
		st, err := runs.OpenStore(storeDir)
		if err != nil {
			return failErr(cmd, exitFail, "%v", err)
		}
		o.Store = st
	}
	return exitCode(tui.Run(o, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()))
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/torchtriage/torchtriage/triage/runs"
	"github.com/torchtriage/torchtriage/triage/steady"
)

// durationValue is a duration flag that also takes a bare number of seconds, as coreutils timeout does
// (--timeout 300 = 300s; Go durations such as 5m or 1h30m work too).
type durationValue time.Duration

// String is "" for zero (help then shows no default: the flag's text says what zero means).
func (d *durationValue) String() string {
	if *d == 0 {
		return ""
	}
	return time.Duration(*d).String()
}
func (d *durationValue) Type() string { return "duration" }

// Set refuses what no flag of the tool means: a negative duration (it read as none at all) and one past
// time.Duration's range (a bare number converted past it, such as inf or 1e300, turned negative too).
func (d *durationValue) Set(s string) error {
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		switch {
		case n < 0:
			return fmt.Errorf("%q is negative", s)
		case n*float64(time.Second) >= math.MaxInt64: // also inf
			return fmt.Errorf("%q is too long; give at most %.0fh", s, time.Duration(math.MaxInt64).Hours())
		}
		*d = durationValue(time.Duration(n * float64(time.Second)))
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is not a duration; use 300s or 5m (a bare number is seconds)", s)
	}
	if v < 0 {
		return fmt.Errorf("%q is negative", s)
	}
	*d = durationValue(v)
	return nil
}

func durationFlag(fs *pflag.FlagSet, p *time.Duration, name string, usage string) {
	fs.Var((*durationValue)(p), name, usage)
}

// unsetInt is an int flag whose negative value means "not given" (its help states the default, not -1).
type unsetInt int

func (v *unsetInt) String() string {
	if *v < 0 {
		return ""
	}
	return strconv.Itoa(int(*v))
}
func (v *unsetInt) Type() string { return "int" }

func (v *unsetInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%q is not a whole number", s)
	}
	*v = unsetInt(n)
	return nil
}

// enumValue is a string flag limited to a list of values (e.g. --format), completed from the list.
type enumValue struct {
	p       *string
	allowed []string
}

func (e *enumValue) String() string { return *e.p }
func (e *enumValue) Type() string   { return "string" }

func (e *enumValue) Set(s string) error {
	for _, a := range e.allowed {
		if s == a {
			*e.p = s
			return nil
		}
	}
	return fmt.Errorf("%q is not one of %s", s, orList(e.allowed))
}

// enumFlag declares a flag that takes one of allowed (the first is the default) and completes them.
func enumFlag(cmd *cobra.Command, p *string, name, usage string, allowed ...string) {
	*p = allowed[0]
	cmd.Flags().Var(&enumValue{p: p, allowed: allowed}, name, usage+" ("+strings.Join(allowed, ", ")+")")
	_ = cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(allowed, cobra.ShellCompDirectiveNoFileComp))
}

// formatFlag is --format.
func formatFlag(cmd *cobra.Command, p *string, allowed ...string) {
	enumFlag(cmd, p, "format", "output format", allowed...)
}

func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// launchFlags are the flags that launch a repro, declared once for run and check -- CMD.
type launchFlags struct {
	preset, logs, store, launcher, stepMarker string
	timeout, stall, collTimeout               time.Duration
	nproc, warmupSteps                        int
	shell, noProbe                            bool
}

func (l *launchFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&l.preset, "preset", runs.DefaultPreset, "the preset of TORCH_LOGS names to run with (see torchtriage presets)")
	fs.StringVar(&l.logs, "logs", "", "list of TORCH_LOGS names, comma-separated, to use instead of the preset's (e.g. graph_breaks,+dynamo; its other settings stay; recompiles is added unless recompiles or recompiles_verbose is given)")
	fs.StringVar(&l.store, "store", "", "run store directory (default .torchtriage/runs)")
	fs.StringVar(&l.launcher, "launcher", "", "the launcher, torchrun or srun (default: torchrun when --nproc > 0)")
	durationFlag(fs, &l.timeout, "timeout", "stop the repro after this long: SIGINT, then SIGTERM, then SIGKILL (300 = 300s; 0 = never)")
	durationFlag(fs, &l.stall, "stall", "no output for this long marks the run stalled (default 5m)")
	durationFlag(fs, &l.collTimeout, "collective-timeout", "set torch.distributed.init_process_group's timeout to this (the probe wraps it and says so on stderr), so a hung collective fails with torch's timeout error; off by default")
	fs.IntVar(&l.nproc, "nproc", 0, "how many ranks: run the command under torchrun --nproc-per-node N")
	fs.BoolVar(&l.shell, "shell", false, "run the command line under sh -c")
	fs.BoolVar(&l.noProbe, "no-probe", false, "do not install the in-process probe (stack dumps, versions, config parity)")
	l.warmupSteps = -1 // not given: the run's own, else the default
	fs.Var((*unsetInt)(&l.warmupSteps), "warmup-steps", fmt.Sprintf("steps that may compile before the steady state (default %d; kept with the run)", steady.DefaultWarmupSteps))
	fs.StringVar(&l.stepMarker, "step-marker", "", "regexp on the program's output marking each step (group 1: the step number), for a loop without optimizer.step()")
	_ = cmd.RegisterFlagCompletionFunc("preset", completePresets)
	_ = cmd.RegisterFlagCompletionFunc("logs", completeLogNames)
	_ = cmd.RegisterFlagCompletionFunc("launcher", cobra.FixedCompletions([]string{"torchrun", "srun"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.MarkFlagDirname("store")
}

// spec checks the launch flags and builds the run's spec around the user's command.
func (l *launchFlags) spec(cmd *cobra.Command, argv []string) (runs.Spec, error) {
	if _, ok := runs.PresetByName(l.preset); !ok {
		return runs.Spec{}, usageErr(cmd, "--preset: unknown preset %q (known: %s)", l.preset, strings.Join(runs.PresetNames(), ", "))
	}
	if l.launcher != "" && l.launcher != "torchrun" && l.launcher != "srun" {
		return runs.Spec{}, usageErr(cmd, "--launcher: %q is not one of torchrun or srun", l.launcher)
	}
	if l.nproc < 0 {
		return runs.Spec{}, usageErr(cmd, "--nproc: %d is below 0", l.nproc)
	}
	logs, err := logNames(cmd, l.logs)
	if err != nil {
		return runs.Spec{}, err
	}
	spec, err := runs.Spec{Argv: argv, Shell: l.shell, Nproc: l.nproc, Launcher: l.launcher, Preset: l.preset, Logs: logs,
		Timeout: l.timeout, Stall: l.stall, WarmupSteps: runs.OptionalSteps(l.warmupSteps), StepMarker: l.stepMarker,
		CollectiveTimeout: l.collTimeout}.Checked()
	if err != nil { // a usage error of this command, named as such
		return spec, usageErr(cmd, "%v", err)
	}
	return spec, nil
}

// logNames splits --logs into TORCH_LOGS names (nil when not given: the preset's). A malformed name is a usage
// error; one the newest torch torchtriage knows does not have is a warning (a newer torch may have it, and
// a torch that rejects it gets relaunched without it).
func logNames(cmd *cobra.Command, list string) ([]string, error) {
	if !cmd.Flags().Changed("logs") {
		return nil, nil
	}
	names := []string{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
			continue
		case !runs.KnownLogName(n, ""):
			return nil, usageErr(cmd, "--logs: %q is not a TORCH_LOGS name", n)
		case !runs.KnownLogName(n, latestTorch):
			warn(cmd, "--logs: the newest torch torchtriage knows (%s) has no TORCH_LOGS name %q%s; a torch that rejects it is relaunched without it",
				latestTorch, n, didYouMean(n))
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return nil, usageErr(cmd, "--logs: no TORCH_LOGS name given")
	}
	return names, nil
}

// didYouMean is " (did you mean NAME?)" for the TORCH_LOGS name closest to n (edit distance ≤ 2), or "".
func didYouMean(n string) string {
	base := strings.TrimLeft(n, "+-")
	known, _ := runs.LogNamesFor(latestTorch)
	best := nearest(base, known)
	if best == "" {
		return ""
	}
	return " (did you mean " + n[:len(n)-len(base)] + best + "?)"
}

// splitDash separates a command's own arguments from the repro's command after "--" (nil when there is none).
func splitDash(cmd *cobra.Command, args []string) (own, repro []string) {
	at := cmd.ArgsLenAtDash()
	if at < 0 {
		return args, nil
	}
	return args[:at], args[at:]
}

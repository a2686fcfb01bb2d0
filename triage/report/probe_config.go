package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// noConfig says why the probe recorded no process's config (the versions, compile config and environment each
// process that imported torch writes as it exits: what config parity compares), in words true of what the run
// directory holds: its meta (was the probe installed, how did the run end) and the probe's start and compile
// files (RunFacts.TorchImported, CompileStates); "" when exited, the processes whose exit file was read, is not 0.
// The TUI's Ranks view shows it under "Config parity (probe)".
func NoConfig(run *RunFacts, exited int) string {
	switch {
	case exited > 0:
		return ""
	case run == nil:
		return "no config recorded in the opened files (the probe of a torchtriage run writes it as each torch " +
			"process exits)"
	case !run.Probed:
		return "no config recorded: the run was launched without the probe (--no-probe)"
	case run.Outcome == OutcomeRunning:
		return "no config recorded yet: the probe writes it as each torch process exits"
	case run.TorchImported == 0:
		s := "no config recorded: the probe saw no process of the program finish importing torch"
		if by := run.StoppedBy(); by != "" {
			s += " before torchtriage stopped the run (" + by + ")"
		}
		return s
	}
	procs, their := "its torch process", "its"
	if run.TorchImported > 1 {
		procs, their = fmt.Sprintf("its %d torch processes", run.TorchImported), "their"
	}
	state := "start and compile state"
	if len(run.CompileStates) == 0 {
		state = "start state (torch version)"
	}
	only := "; the probe wrote only " + their + " " + state
	switch run.Outcome {
	case OutcomeStopped:
		return "no config recorded: torchtriage stopped the run (" + run.StoppedBy() + ") and " + procs +
			" ended without writing it at exit" + only
	case OutcomeFailed, OutcomeCompleted:
		return "no config recorded: the run " + ExitWords(run) + " and " + procs + " ended without writing it at exit" +
			only
	}
	// interrupted (the tool died) or unknown: whether the processes ended is not known
	return "no config recorded: " + procs + " wrote none at exit" + only
}

// configMissing says which processes imported torch (a start file) but wrote no config at exit, where some others
// did (noConfig says it where none did): config parity compares only the processes whose config was recorded, so
// the Ranks view names the others, "rank 1 (pid 22065) wrote none at exit: not compared". "" when every process
// that imported torch wrote one, or none did.
func ConfigMissing(run *RunFacts, probes []ProcessInfo) string {
	if run == nil || len(probes) == 0 {
		return ""
	}
	var missing []string
	for _, s := range run.Started {
		if slices.ContainsFunc(probes, func(p ProcessInfo) bool { return p.PID == s.PID }) {
			continue
		}
		who := "rank " + strconv.Itoa(s.Rank)
		if s.NoRank() {
			who = "a process without rank"
		}
		missing = append(missing, fmt.Sprintf("%s (pid %d)", who, s.PID))
	}
	switch len(missing) {
	case 0:
		return ""
	case 1:
		return missing[0] + " imported torch but wrote no config at exit: not compared"
	}
	n := len(missing)
	if n > 4 {
		missing = append(missing[:4], fmt.Sprintf("%d more", n-4))
	}
	return fmt.Sprintf("%d processes imported torch but wrote no config at exit, not compared: %s", n, strings.Join(missing, ", "))
}

func ExitWords(run *RunFacts) string {
	switch {
	case run.ExitCode != nil:
		return fmt.Sprintf("exited with code %d", *run.ExitCode)
	case run.Signal != "":
		return "was killed (" + run.Signal + ")"
	}
	return "failed"
}

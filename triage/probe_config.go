package triage

import "fmt"

// noConfig says why the probe recorded no process's config (the versions, compile config and environment each
// process that imported torch writes as it exits: what config parity compares), in words true of what the run
// directory holds: its meta (was the probe installed, how did the run end) and the probe's start and compile
// files (RunFacts.TorchImported, CompileStates); "" when exited, the processes whose exit file was read, is not 0.
// The TUI's Ranks view shows it under "Config parity (probe)".
func noConfig(run *RunFacts, exited int) string {
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
		return "no config recorded: the run " + exitWords(run) + " and " + procs + " ended without writing it at exit" +
			only
	}
	// interrupted (the tool died) or unknown: whether the processes ended is not known
	return "no config recorded: " + procs + " wrote none at exit" + only
}

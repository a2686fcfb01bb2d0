package triage

import "testing"

// Why no config was recorded, in words true of each run directory (the recordings are in tui's tests): every case
// noConfig tells apart, and none where a process's exit file was read.
func TestNoConfigWords(t *testing.T) {
	exit1, states := 1, []ProbeCompileState{{Rank: 0}}
	for _, c := range []struct {
		name   string
		run    *RunFacts
		exited int
		want   string
	}{
		{"exit files", &RunFacts{Probed: true, Outcome: OutcomeStopped, TorchImported: 2}, 1, ""},
		{"opened files", nil, 0, "no config recorded in the opened files (the probe of a torchtriage run writes " +
			"it as each torch process exits)"},
		{"--no-probe", &RunFacts{Outcome: OutcomeCompleted}, 0,
			"no config recorded: the run was launched without the probe (--no-probe)"},
		{"running", &RunFacts{Probed: true, Outcome: OutcomeRunning, TorchImported: 2}, 0,
			"no config recorded yet: the probe writes it as each torch process exits"},
		{"no torch", &RunFacts{Probed: true, Outcome: OutcomeFailed, ExitCode: &exit1}, 0,
			"no config recorded: the probe saw no process of the program finish importing torch"},
		{"stopped importing", &RunFacts{Probed: true, Outcome: OutcomeStopped, StopReason: "cancelled"}, 0,
			"no config recorded: the probe saw no process of the program finish importing torch before " +
				"torchtriage stopped the run (cancelled)"},
		{"stopped", &RunFacts{Probed: true, Outcome: OutcomeStopped, StopReason: "timed out after 30s",
			TorchImported: 2, CompileStates: states}, 0, "no config recorded: torchtriage stopped the run (timed " +
			"out after 30s) and its 2 torch processes ended without writing it at exit; the probe wrote only their " +
			"start and compile state"},
		{"failed, nothing compiled", &RunFacts{Probed: true, Outcome: OutcomeFailed, ExitCode: &exit1,
			TorchImported: 1}, 0, "no config recorded: the run exited with code 1 and its torch process ended " +
			"without writing it at exit; the probe wrote only its start state (torch version)"},
		{"interrupted", &RunFacts{Probed: true, Outcome: OutcomeInterrupted, TorchImported: 1,
			CompileStates: states}, 0, "no config recorded: its torch process wrote none at exit; the probe wrote " +
			"only its start and compile state"},
	} {
		if got := noConfig(c.run, c.exited); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

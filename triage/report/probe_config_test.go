package report

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
		if got := NoConfig(c.run, c.exited); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// configMissing names the processes that imported torch but wrote no config, where others did; nothing where all
// or none did (noConfig says the latter).
func TestConfigMissingWords(t *testing.T) {
	started := func(pids ...int) *RunFacts {
		r := &RunFacts{}
		for i, p := range pids {
			r.Started = append(r.Started, ProbeStart{Rank: i, PID: p})
		}
		return r
	}
	exited := func(pids ...int) []ProcessInfo {
		var out []ProcessInfo
		for _, p := range pids {
			out = append(out, ProcessInfo{PID: p})
		}
		return out
	}
	noRank := &RunFacts{Started: []ProbeStart{{Rank: 0, RankSource: "default", PID: 7}, {Rank: 0, PID: 8}}}
	for _, c := range []struct {
		run    *RunFacts
		probes []ProcessInfo
		want   string
	}{
		{started(10, 11), exited(10, 11), ""},
		{started(10, 11), nil, ""}, // none wrote one: noConfig's
		{nil, exited(10), ""},      // opened files: no start files known
		{started(10, 11), exited(10), "rank 1 (pid 11) imported torch but wrote no config at exit: not compared"},
		{noRank, exited(8), "a process without rank (pid 7) imported torch but wrote no config at exit: not compared"},
		{started(10, 11, 12), exited(11), "2 processes imported torch but wrote no config at exit, not compared: " +
			"rank 0 (pid 10), rank 2 (pid 12)"},
		{started(1, 2, 3, 4, 5, 6, 7), exited(1), "6 processes imported torch but wrote no config at exit, not " +
			"compared: rank 1 (pid 2), rank 2 (pid 3), rank 3 (pid 4), rank 4 (pid 5), 2 more"},
	} {
		if got := ConfigMissing(c.run, c.probes); got != c.want {
			t.Errorf("configMissing = %q, want %q", got, c.want)
		}
	}
}

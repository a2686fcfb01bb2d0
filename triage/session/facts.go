package session

import (
	"cmp"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// What a stored run tells the analysis (triage.RunFacts): its meta.json (triage/runs) and what its probe wrote.

// RunFactsOf is what a run's meta.json tells the analysis (metaFacts), with the processes its probe saw import
// torch (the run directory's start files) and their compile states (its compile files).
func RunFactsOf(m runs.Meta) *report.RunFacts {
	f := metaFacts(m)
	if m.Dir != "" {
		starts, _ := probe.ReadStarts(m.Dir)
		f.TorchImported = len(starts)
		for _, s := range starts {
			f.TorchImportedVersion = cmp.Or(f.TorchImportedVersion, s.Torch)
			f.Started = append(f.Started, s)
		}
		f.CompileStates = compileStatesOf(m.Dir)
		f.Steps, _ = probe.ReadStepLogs(m.Dir)
	}
	return f
}

// StoppedBy words why the tool itself stopped a run ("cancelled", "timed out"), "" when it did not: from
// meta.json alone, so a view may ask it without reading the run directory.
func StoppedBy(m runs.Meta) string { return metaFacts(m).StoppedBy() }

// metaFacts is what meta.json alone tells: how the run ended (the tool's own stops named as such), the TORCH_LOGS
// it set, its process count.
func metaFacts(m runs.Meta) *report.RunFacts {
	f := &report.RunFacts{TorchLogs: m.TorchLogs, TorchLogsSet: true, ExitCode: m.ExitCode, Signal: m.Signal,
		Error: m.Error, TorchVersion: m.TorchVersion, WorldSize: m.Nproc, StopReason: m.StopReason, ToolEnv: m.Env,
		Direct: directCommand(m), Probed: Probed(m.Env)}
	if m.End != nil {
		f.End = *m.End
	}
	f.StepMarker = m.Env[probe.StepMarkerEnv]
	if k, err := strconv.Atoi(m.Env[probe.WarmupStepsEnv]); err == nil && k >= 0 {
		f.WarmupSteps = &k
	}
	if v, ok := runs.ReadMinified(m.Dir); ok && m.Dir != "" { // the ladder's minifier and bisector on this run
		for _, l := range [][2]string{{"Minifier: ", v.Minifier}, {"Compiler bisector: ", v.Bisector}} {
			if l[1] != "" {
				f.Minified = append(f.Minified, l[0]+l[1])
			}
		}
	}
	for _, st := range m.Stalls {
		s := report.StallFact{Since: st.Since, Detected: st.Detected, Compiling: st.Compiling}
		switch {
		case st.Resumed != nil:
			s.Until, s.Resumed = *st.Resumed, true
		case st.Ended != nil:
			s.Until = *st.Ended
		}
		f.Stalls = append(f.Stalls, s)
	}
	if w, err := strconv.Atoi(m.Env["WORLD_SIZE"]); err == nil && w > f.WorldSize {
		f.WorldSize = w
	}
	switch {
	case m.State == runs.StateFailedToStart:
		f.Outcome = report.OutcomeDidNotStart
	case m.StopReason != "":
		f.Outcome = report.OutcomeStopped
	case m.State == runs.StateTimedOut: // written before stop reasons were
		f.Outcome, f.StopReason = report.OutcomeStopped, "timed out"
	case m.State == runs.StateRunning || m.State == runs.StateStalled:
		f.Outcome = report.OutcomeRunning
	case m.Completed():
		f.Outcome = report.OutcomeCompleted
	case m.State == runs.StateInterrupted: // the tool's death, not the program's: never "failed"
		f.Outcome = report.OutcomeInterrupted
	case m.State == runs.StateCorrupt:
		f.Outcome = report.OutcomeUnknown
	default:
		f.Outcome = report.OutcomeFailed
	}
	return f
}

// Probed says whether a run's recorded environment (Meta.Env, RunFacts.ToolEnv) installed the probe.
func Probed(env map[string]string) bool {
	_, on := env[probe.DirEnv]
	return on
}

// RunFactsOfDir reads a run directory's meta.json into run facts; nil when the path is not a run directory.
func RunFactsOfDir(dir string) *report.RunFacts {
	m, err := runs.LoadRun(dir)
	if err != nil {
		return nil
	}
	return RunFactsOf(m)
}

// directCommand: the run executed python or torchrun itself (not through a shell or another wrapper), so its exit
// status is the program's. Not a torchrun that may restart its workers (--max-restarts above 0): its exit 0 can
// follow a worker that died and was restarted.
func directCommand(m runs.Meta) bool {
	if m.Shell || len(m.Argv) == 0 {
		return false
	}
	prog := filepath.Base(m.Argv[0])
	if !strings.HasPrefix(prog, "python") && prog != "torchrun" {
		return false
	}
	for i, a := range m.Argv {
		name, val, inline := strings.Cut(a, "=")
		if name != "--max-restarts" && name != "--max_restarts" {
			continue
		}
		if !inline && i+1 < len(m.Argv) {
			val = m.Argv[i+1]
		}
		if n, err := strconv.Atoi(val); err != nil || n > 0 {
			return false
		}
	}
	return true
}

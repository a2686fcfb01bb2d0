package session

import (
	"cmp"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage/runs"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/runner"
)

// The run store, launch and preset vocabulary of a session, as the runner defines it: the UI goes through this
// package and never imports the runner itself.
type (
	Spec      = runs.Spec
	Meta      = runs.Meta
	State     = runs.State
	Store     = runs.Store
	EventKind = runner.EventKind
	// Event is what the runner reports of a run (output, stall, exit, …).
	Event    = runner.Event
	Preset   = runs.Preset
	LogSet   = runs.LogSet
	LogEntry = runs.LogEntry
	// Comparison is the eager-vs-compiled comparison of two runs.
	Comparison = runs.Comparison
	// ProcessInfo is what the probe recorded about one process.
	ProcessInfo = triage.ProcessInfo
)

// Run states.
const (
	StateRunning       = runs.StateRunning
	StateStalled       = runs.StateStalled
	StateExited        = runs.StateExited
	StateTimedOut      = runs.StateTimedOut
	StateKilled        = runs.StateKilled
	StateFailedToStart = runs.StateFailedToStart
	StateCorrupt       = runs.StateCorrupt
	StateInterrupted   = runs.StateInterrupted
)

// Event kinds (what a Note says happened).
const (
	EventOutput     = runner.EventOutput
	EventStalled    = runner.EventStalled
	EventResumed    = runner.EventResumed
	EventExited     = runner.EventExited
	EventRelaunched = runner.EventRelaunched
	EventError      = runner.EventError
)

// DefaultStoreDir is where runs are stored, under the working directory.
const DefaultStoreDir = runs.DefaultStoreDir

// DefaultPreset is the preset a run starts with.
const DefaultPreset = runs.DefaultPreset

// Presets lists the TORCH_LOGS presets.
func Presets() []Preset { return runs.Presets() }

// PresetByName finds a preset.
func PresetByName(name string) (Preset, bool) { return runs.PresetByName(name) }

// PresetNames lists the preset names.
func PresetNames() []string { return runs.PresetNames() }

// NewLogSet is the editable set of TORCH_LOGS names of the preset bar.
func NewLogSet(on []string) *LogSet { return runs.NewLogSet(on) }

// KnownLogName reports whether a torch version accepts a TORCH_LOGS name ("" = any version).
func KnownLogName(name, torchVersion string) bool { return runs.KnownLogName(name, torchVersion) }

// SameLogs reports whether two lists of TORCH_LOGS names name the same set, in any order.
func SameLogs(a, b []string) bool { return runs.SameLogs(a, b) }

// ComposeTorchLogs builds the TORCH_LOGS value for a torch version, dropping names it would reject.
func ComposeTorchLogs(names []string, torchVersion string) (string, []string) {
	return runs.ComposeTorchLogs(names, torchVersion)
}

// OpenStore opens (creating) a run store; "" is the default .torchtriage/runs.
func OpenStore(dir string) (*Store, error) { return runs.OpenStore(dir) }

// LoadRun reads a run directory's meta.json.
func LoadRun(dir string) (Meta, error) { return runs.LoadRun(dir) }

// UpdateMeta changes a finished run's meta.json.
func UpdateMeta(dir string, fn func(*Meta)) error { return runs.UpdateMeta(dir, fn) }

// CompareBaseline compares an eager run with a compiled one (checklist step 1): on the metric, else on wall time
// less the compile time the probe measured (compileS), else inconclusive.
func CompareBaseline(eager, compiled Meta, higherIsBetter bool, compileS float64) Comparison {
	return runs.CompareBaseline(eager, compiled, higherIsBetter, compileS)
}

// CompileSeconds is the compile time the probe measured in a run's processes (the largest over ranks: they
// compile in parallel), 0 when it measured none: whole-frame compiles plus lazy backward compiles.
func CompileSeconds(probes []ProcessInfo) float64 {
	best := 0.0
	for _, p := range probes {
		s := p.CompileTimes["_compile.compile_inner"] + p.CompileTimes["compile_fx.<locals>.bw_compiler"]
		best = max(best, s)
	}
	return best
}

// MetricOfFile extracts the metric from a run's output file, line by line (runs.MetricOfFile).
func MetricOfFile(re *regexp.Regexp, path string) (float64, bool, error) {
	return runs.MetricOfFile(re, path)
}

// ReadProbes reads what the probe wrote for the processes of a run directory; unreadable files are errors, the
// others are still read.
func ReadProbes(runDir string) ([]ProcessInfo, []error) { return probe.ReadDir(runDir) }

// withProbe adds the in-process probe to a spec: its sitecustomize is installed in the run directory before the
// launch (after whatever the spec prepares itself), and stack dumps go to the processes it registered.
func withProbe(spec Spec) Spec {
	prev := spec.Prepare
	spec.Prepare = func(dir string) ([]string, error) {
		env, err := probe.Install(dir)
		if err != nil || prev == nil {
			return env, err
		}
		more, err := prev(dir)
		return append(env, more...), err
	}
	spec.StackTargets = probe.ReadyPIDs
	spec.Compiling = probe.CompilingNow
	return spec
}

// LogNamesFor lists the TORCH_LOGS names a torch version accepts; ok is false for a version the table does not
// know.
func LogNamesFor(torchVersion string) ([]string, bool) { return runs.LogNamesFor(torchVersion) }

// RunFactsOf is what a run's meta.json tells the analysis (metaFacts), with the processes its probe saw import
// torch (the run directory's start files) and their compile states (its compile files).
func RunFactsOf(m Meta) *triage.RunFacts {
	f := metaFacts(m)
	if m.Dir != "" {
		starts, _ := probe.ReadStarts(m.Dir)
		f.TorchImported = len(starts)
		for _, s := range starts {
			f.TorchImportedVersion = cmp.Or(f.TorchImportedVersion, s.Torch)
			f.Started = append(f.Started, s)
		}
		f.CompileStates = compileStatesOf(m.Dir)
	}
	return f
}

// StoppedBy words why the tool itself stopped a run ("cancelled", "timed out"), "" when it did not: from
// meta.json alone, so a view may ask it without reading the run directory.
func StoppedBy(m Meta) string { return metaFacts(m).StoppedBy() }

// metaFacts is what meta.json alone tells: how the run ended (the tool's own stops named as such), the TORCH_LOGS
// it set, its process count.
func metaFacts(m Meta) *triage.RunFacts {
	f := &triage.RunFacts{TorchLogs: m.TorchLogs, TorchLogsSet: true, ExitCode: m.ExitCode, Signal: m.Signal,
		Error: m.Error, TorchVersion: m.TorchVersion, WorldSize: m.Nproc, StopReason: m.StopReason, ToolEnv: m.Env,
		Direct: directCommand(m), Probed: Probed(m.Env)}
	if w, err := strconv.Atoi(m.Env["WORLD_SIZE"]); err == nil && w > f.WorldSize {
		f.WorldSize = w
	}
	switch {
	case m.State == StateFailedToStart:
		f.Outcome = triage.OutcomeDidNotStart
	case m.StopReason != "":
		f.Outcome = triage.OutcomeStopped
	case m.State == StateTimedOut: // written before stop reasons were
		f.Outcome, f.StopReason = triage.OutcomeStopped, "timed out"
	case m.State == StateRunning || m.State == StateStalled:
		f.Outcome = triage.OutcomeRunning
	case m.Completed():
		f.Outcome = triage.OutcomeCompleted
	case m.State == StateInterrupted: // the tool's death, not the program's: never "failed"
		f.Outcome = triage.OutcomeInterrupted
	case m.State == StateCorrupt:
		f.Outcome = triage.OutcomeUnknown
	default:
		f.Outcome = triage.OutcomeFailed
	}
	return f
}

// Probed says whether a run's recorded environment (Meta.Env, RunFacts.ToolEnv) installed the probe.
func Probed(env map[string]string) bool {
	_, on := env[probe.DirEnv]
	return on
}

// RunFactsOfDir reads a run directory's meta.json into run facts; nil when the path is not a run directory.
func RunFactsOfDir(dir string) *triage.RunFacts {
	m, err := LoadRun(dir)
	if err != nil {
		return nil
	}
	return RunFactsOf(m)
}

// directCommand: the run executed python or torchrun itself (not through a shell or another wrapper), so its exit
// status is the program's. Not a torchrun that may restart its workers (--max-restarts above 0): its exit 0 can
// follow a worker that died and was restarted.
func directCommand(m Meta) bool {
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

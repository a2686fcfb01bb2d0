package session

import (
	"errors"
	"strconv"
	"time"

	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// What the probe writes while a run's processes live, for the UI: the start files (the real torch version as soon
// as torch is imported) and the compile-state files (which rank compiles what, since when). triage/probe defines
// them; triage names them for the analysis and the UI (triage.ProbeStart, triage.ProbeCompileState).

// ReadStarts reads the start files of a run directory, sorted by rank then pid.
func ReadStarts(runDir string) ([]report.ProbeStart, []error) { return probe.ReadStarts(runDir) }

// ReadCompileStates reads the compile-state files of a run directory, sorted by rank then pid, with whether each
// process still runs.
func ReadCompileStates(runDir string) ([]report.ProbeCompileState, []error) {
	return probe.ReadCompileStates(runDir)
}

// DescribeCompiling words the compiling processes ("rank 3 compiling `forward` for 2m10s · rank 0,1,2 not
// compiling (waiting)"); "" when none is.
func DescribeCompiling(states []report.ProbeCompileState, now time.Time) string {
	return probe.DescribeCompiling(states, now)
}

// compileStatesOf is the compile states of a run directory's processes for the analysis (RunFacts.CompileStates);
// an unreadable file is left out (its rank's state is not known).
func compileStatesOf(runDir string) []report.ProbeCompileState {
	states, _ := probe.ReadCompileStates(runDir)
	return states
}

// ReadProbes reads what the probe wrote for the processes of a run directory; unreadable files are errors, the
// others are still read.
func ReadProbes(runDir string) ([]report.ProcessInfo, []error) { return probe.ReadDir(runDir) }

// ErrCollectiveTimeoutNeedsProbe refuses --collective-timeout without the probe, which applies it.
var ErrCollectiveTimeoutNeedsProbe = errors.New("--collective-timeout needs the probe (it sets init_process_group's timeout): drop --no-probe")

// withProbe adds the in-process probe to a spec: its sitecustomize is installed in the run directory before the
// launch (after whatever the spec prepares itself), and stack dumps go to the processes it registered.
func withProbe(spec runs.Spec) runs.Spec {
	prev := spec.Prepare
	coll := spec.CollectiveTimeout
	spec.Prepare = func(dir string) ([]string, error) {
		env, err := probe.Install(dir)
		if err == nil && coll > 0 { // the user's --collective-timeout: in the run's environment and meta.json
			env = append(env, probe.CollectiveTimeoutEnv+"="+strconv.FormatFloat(coll.Seconds(), 'f', -1, 64))
		}
		if err != nil || prev == nil {
			return env, err
		}
		more, err := prev(dir)
		return append(env, more...), err
	}
	spec.StackTargets = probe.ReadyPIDs
	spec.Compiling = probe.CompilingNow
	spec.ImportedCode = probe.ImportedFiles
	return spec
}

// CompileSeconds is the compile time the probe measured in a run's processes (the largest over ranks: they
// compile in parallel), 0 when it measured none: whole-frame compiles plus lazy backward compiles.
func CompileSeconds(probes []report.ProcessInfo) float64 {
	best := 0.0
	for _, p := range probes {
		s := p.CompileTimes["_compile.compile_inner"] + p.CompileTimes["compile_fx.<locals>.bw_compiler"]
		best = max(best, s)
	}
	return best
}

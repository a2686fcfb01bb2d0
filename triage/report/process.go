package report

import "github.com/torchtriage/torchtriage/triage/probe"

// What the in-process probe recorded for each process (triage/probe defines its files and reads them), and the two
// checks made on it: settings that differ between ranks (ConfigParity) and breaks the process counted that its
// log does not show (CrossCheck).

type (
	// ProcessInfo is what the probe recorded for one process (one rank<R>-<pid>.json, probe.Info). Its Rank is 0
	// by default for a process that is no rank (RankOf says -1 then).
	ProcessInfo = probe.Info
	// ProbeStart is a process the probe saw import torch (its start file, start-rank<R>-<pid>.json, probe.Start).
	ProbeStart = probe.Start
	// ProbeCompileState is one process's compile state as its probe last wrote it (<run dir>/probe/
	// compile-rank<R>-<pid>.json, probe.CompileState, kept up to date from torch's compile start and end
	// callbacks): how many compiles it had finished, and the latest it began (its frame and compile id), finished
	// (Phase "idle") or not ("compiling"). The callbacks fire for Dynamo's frame compiles, lazy backward compiles
	// and, from 2.11, CUDA-graph recordings (Trigger). session.RunFactsOf reads them into RunFacts.CompileStates.
	ProbeCompileState = probe.CompileState
)

// compiledNothing: the probe saw the process begin no frame and measure no compile time (Dynamo's frame counters
// and compile times empty).
func CompiledNothing(p ProcessInfo) bool {
	return p.Counters["frames"]["total"] == 0 && p.Counters["frames"]["ok"] == 0 && len(p.CompileTimes) == 0
}

package triage

// A diff compares a kind of item only where both sides logged it: an item of a kind one side could not print is
// neither new nor gone there (DiffResult.NotCompared says which kinds, on which side).

// gpuKinds print only on GPUs: a CPU run that did not log them is no gap worth naming.
var gpuKinds = map[Kind]bool{KindCudagraphSkip: true, KindCudagraphPartition: true, KindCudagraphRerecord: true}

// unlogged says why a's input could not show items of kind k ("" when it could): no torch output at all (and
// whose doing that was: the program's, the tool's stop, a launch that failed), or
// TORCH_LOGS without them (known of a run; of logs alone only that nothing shows they were logged), or, for
// partitions, graphs loaded from the FX graph cache, which prints none (Analysis.PartitionsHidden: the bringup
// log's words). Limit hits and errors always print.
func (a *Analysis) unlogged(k Kind) string {
	ev := a.Evidence
	if !ev.TorchSeen {
		return a.SilentWhy()
	}
	if ev.NothingCompiled() != "" && k != KindRuntimeError { // nothing compiled: none of them could happen
		return "compiled nothing (" + ev.NothingCompiledShort() + ")"
	}
	if ev.LogSilenced != "" && k != KindCompileError && k != KindRuntimeError { // raised errors print without the log
		return "lacks in its log what its probe counted (" + ev.LogSilenced + ")"
	}
	logged := true
	switch k {
	case KindGraphBreak:
		logged = ev.GraphBreaksLogged
	case KindRecompile:
		logged = ev.RecompilesLogged
	case KindCudagraphSkip:
		logged = ev.CudagraphSkipsLogged
	case KindCudagraphPartition:
		logged = ev.CudagraphPartitionsLogged
	case KindCudagraphRerecord:
		logged = ev.CudagraphRerecordsLogged
	}
	switch {
	case logged:
		return ""
	case k == KindCudagraphPartition && a.PartitionsHidden() != "": // TORCH_LOGS had cudagraphs: not its doing
		return PartitionsFromCache
	case ev.LogsFrom == "run": // the run's own TORCH_LOGS is known
		return "did not log them (TORCH_LOGS)"
	}
	return "shows no sign they were logged (TORCH_LOGS)" // logs alone: no such record, no tag of their name
}

// SilentWhy says why the run (or logs alone) of an analysis holds no torch output, for a side of a comparison: the
// program printed none, the tool stopped it first or it never started (the verdict's words, never the program
// blamed for the tool's stop).
func (a *Analysis) SilentWhy() string { return silentRunWhy(a.Run) }

package compare

import "github.com/torchtriage/torchtriage/triage/findings"

// A diff compares a kind of item only where both sides logged it: an item of a kind one side could not print is
// neither new nor gone there (DiffResult.NotCompared says which kinds, on which side).

// gpuKinds print only on GPUs: a CPU run that did not log them is no gap worth naming.
var gpuKinds = map[findings.Kind]bool{findings.KindCudagraphSkip: true, findings.KindCudagraphPartition: true, findings.KindCudagraphRerecord: true}

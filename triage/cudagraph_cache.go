package triage

import (
	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/report"
)

// fxCacheHits is how many graphs the inputs show loaded from the FX graph cache (0 when nothing says).
func fxCacheHits(rep *report.Report) int {
	if rep == nil || rep.Compile == nil {
		return 0
	}
	s, ok := rep.Compile.Caches[logparse.CacheFXGraph]
	if !ok || s.Known&report.KnowHit == 0 {
		return 0
	}
	return s.Hit
}

// PartitionsFromCache says, of a side of a diff or of the bringup log, why its partitions are not compared
// although TORCH_LOGS had cudagraphs (Analysis.PartitionsHidden), in the words both print.
const PartitionsFromCache = "loaded its graphs from the FX graph cache, which prints none"

// PartitionsHidden says why non-cudagraphable partitions are not known although cudagraphs logging was on
// (graphs loaded from the FX graph cache); "" when they are.
func (a *Analysis) PartitionsHidden() string { return a.hiddenPartitions }

// PartitionsNotLogged: a run on a GPU (a probed process used one, or the records show CUDA graphs) whose
// TORCH_LOGS lacked cudagraphs, so its non-cudagraphable partitions and re-recordings could not print (since 2.9
// a graph left partly out of CUDA graphs prints a partition, not a skip: gpu-cuda-graphs-2.11.md §1).
func (a *Analysis) PartitionsNotLogged() bool { return a.gpu && !CudagraphsLogged(a) }

// partitionsHidden words why no partition was seen although cudagraphs logging was on: Inductor prints a graph's
// partitions when it schedules it, and a graph loaded from the FX graph cache is not scheduled (a warm rerun of
// a repro whose cold run printed a non-cudagraphable partition prints none). "" when that cannot be the case.
func partitionsHidden(a *Analysis) string {
	if !CudagraphsLogged(a) || a.Report.Counts.CudagraphPartitions > 0 {
		return ""
	}
	n := fxCacheHits(a.Report)
	if n == 0 {
		return ""
	}
	return report.Plural(n, "graph") + " came from the FX graph cache, which prints no partitions: non-cudagraphable " +
		"partitions are not known (rerun cold: --preset cudagraphs, or TORCHINDUCTOR_FORCE_DISABLE_CACHES=1)"
}

// probeTorch is the torch version every probed process reported; "" when none did or they differ (the
// config-parity finding then names them).
func probeTorch(probes []report.ProcessInfo) string {
	v := ""
	for _, p := range probes {
		switch {
		case p.Torch == "":
		case v == "":
			v = p.Torch
		case v != p.Torch:
			return ""
		}
	}
	return v
}

// cudagraphsLogged: TORCH_LOGS had cudagraphs on (every compile then prints its partitions), or the records show it.
func CudagraphsLogged(a *Analysis) bool {
	c := a.Report.Counts
	return a.Evidence.CudagraphsOn() || c.CudagraphPartitions > 0 || c.CudagraphRerecords > 0 || c.CudagraphRerecordChecks > 0
}

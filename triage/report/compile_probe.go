package report

// Compile time and caches from the probe (compile_times() and counters at exit), for the ranks whose logs and
// traces say nothing about them.

// compile_times() keys (dynamo_timed spans, summed over the process; they nest).
const (
	CtFrame    = "_compile.compile_inner"         // every frame compile
	CtBackend  = "OutputGraph.call_user_compiler" // the backend calls inside it
	CtBackward = "backward._backward_impl"        // lazy backward compiles (outside the frame compiles)
	CtInductor = "compile_fx_inner"               // Inductor, forward and backward
	CtWait     = "async_compile.wait"             // waiting for kernel compiles
	ctPrecomp  = "async_compile.precompile"
)

// probeCounterCaches maps counters to caches: group, hit, miss, bypass keys.
var probeCounterCaches = []struct{ cache, group, hit, miss, bypass string }{
	{"fx_graph", "inductor", "fxgraph_cache_hit", "fxgraph_cache_miss", "fxgraph_cache_bypass"},
	{"aot_autograd", "aot_autograd", "autograd_cache_hit", "autograd_cache_miss", "autograd_cache_bypass"},
}

// probeRankCompile is one process's compile data; nil when it recorded none.
func probeRankCompile(p ProcessInfo) *RankCompile {
	rc := &RankCompile{Source: SourceProbe}
	ct := p.CompileTimes
	if frame, ok := ct[CtFrame]; ok {
		total := frame + ct[CtBackward]
		rc.TotalS = Fptr(total)
		backend, hasBackend := ct[CtBackend]
		if !hasBackend {
			rc.ByPhase.Dynamo = Fptr(total)
		} else {
			rc.ByPhase.Dynamo = Fptr(max(frame-backend, 0))
			inner := backend + ct[CtBackward]
			triton, hasTriton := ct[CtWait]
			if v, ok := ct[ctPrecomp]; ok {
				triton, hasTriton = triton+v, true
			}
			if ind, ok := ct[CtInductor]; ok {
				rc.ByPhase.AOT = Fptr(max(inner-ind, 0))
				rc.ByPhase.Inductor = Fptr(max(ind-triton, 0))
			} else {
				rc.ByPhase.AOT = Fptr(max(inner-triton, 0))
			}
			if hasTriton {
				rc.ByPhase.Triton = Fptr(triton)
			}
		}
		if n, ok := p.Counters["frames"]["ok"]; ok {
			rc.Frames = int(n)
		}
	}
	for _, c := range probeCounterCaches {
		g := p.Counters[c.group]
		s := CacheStats{Hit: int(g[c.hit]), Miss: int(g[c.miss]), Bypass: int(g[c.bypass]), Known: KnowHit | KnowMiss | KnowBypass}
		if s.Lookups() > 0 {
			if rc.Caches == nil {
				rc.Caches = Caches{}
			}
			rc.Caches[c.cache] = s
		}
	}
	if rc.TotalS == nil && rc.Caches == nil {
		return nil
	}
	return rc
}

// withProbeCompile returns the report's compile object with the probe's data added for the ranks that have
// none from the logs and traces. A report of a process without rank (rank -1) takes none: the probe's rank
// could not be told apart from it.
func WithProbeCompile(c *CompileReport, probes []ProcessInfo) *CompileReport {
	have := c.Ranks()
	if _, ok := have[-1]; ok || len(probes) == 0 {
		return c
	}
	out := &CompileReport{Frames: []*FrameTime{}, ranks: map[int]*RankCompile{}}
	if c != nil {
		out.Frames = c.Frames
		for r, rc := range have {
			if rc.Source != SourceProbe {
				out.ranks[r] = rc
			}
		}
	}
	added := false
	for _, p := range probes {
		rank := p.RankOf()
		if _, ok := out.ranks[rank]; ok && out.ranks[rank].Source != SourceProbe {
			continue
		}
		rc := probeRankCompile(p)
		if rc == nil {
			continue
		}
		added = true
		if prev := out.ranks[rank]; prev != nil { // several processes of one rank
			rc.TotalS, rc.Frames = addOpt(prev.TotalS, rc.TotalS), prev.Frames+rc.Frames
			rc.ByPhase.Add(prev.ByPhase)
			rc.Caches = prev.Caches.merge(rc.Caches)
		}
		out.ranks[rank] = rc
	}
	// several processes, some of which compiled: one that began no frame compiled for 0 s (a rank the others may
	// wait on, or wait for), not for an unknown time
	if len(probes) > 1 && (added || len(out.ranks) > 0) {
		for _, p := range probes {
			if rank := p.RankOf(); rank >= 0 && out.ranks[rank] == nil && p.Counters["frames"]["total"] == 0 {
				out.ranks[rank] = &RankCompile{Source: SourceProbe, TotalS: Fptr(0)}
				added = true
			}
		}
	}
	if !added {
		return c
	}
	out.finish()
	return out
}

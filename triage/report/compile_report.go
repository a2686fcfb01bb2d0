package report

import (
	"math"
	"strings"
)

// The compile object's totals, rounding and rank views (compile_time.go builds it).

// finish computes the totals and per_rank from the ranks.
func (out *CompileReport) finish() {
	out.TotalS, out.ByPhase, out.Runtime, out.Caches, out.PerRank = nil, Phases{}, nil, nil, nil
	sources := map[string]bool{}
	for r, rc := range out.ranks {
		sources[rc.Source] = true
		if rc.TotalS != nil {
			out.TotalS = addOpt(out.TotalS, rc.TotalS)
		}
		out.ByPhase.Add(rc.ByPhase)
		if rc.Runtime != nil {
			if out.Runtime == nil {
				out.Runtime = &RuntimeTime{}
			}
			out.Runtime.AutotuneS = addOpt(out.Runtime.AutotuneS, rc.Runtime.AutotuneS)
			out.Runtime.CudagraphifyS = addOpt(out.Runtime.CudagraphifyS, rc.Runtime.CudagraphifyS)
		}
		out.Caches = out.Caches.merge(rc.Caches)
		if r >= 0 {
			if out.PerRank == nil {
				out.PerRank = map[string]RankCompile{}
			}
			out.PerRank[Itoa(r)] = *rc
		}
	}
	delete(sources, "")
	out.Source = strings.Join(SortedStrings(sources), "+")
	out.TotalS, out.ByPhase = RoundOpt(out.TotalS), out.ByPhase.rounded()
	for _, f := range out.Frames {
		f.TotalS, f.BackwardS, f.ByPhase = Round6(f.TotalS), RoundOpt(f.BackwardS), f.ByPhase.rounded()
	}
	for k, rc := range out.PerRank {
		rc.TotalS, rc.ByPhase = RoundOpt(rc.TotalS), rc.ByPhase.rounded()
		out.PerRank[k] = rc
	}
}

// round6 rounds seconds to the microsecond the sources measure in (sums of µs values carry float noise).
func Round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

func RoundOpt(p *float64) *float64 {
	if p == nil {
		return nil
	}
	return Fptr(Round6(*p))
}

func (p Phases) rounded() Phases {
	return Phases{RoundOpt(p.Dynamo), RoundOpt(p.AOT), RoundOpt(p.Inductor), RoundOpt(p.Triton), RoundOpt(p.Autotune),
		RoundOpt(p.CacheLookup)}
}

// Ranks returns each rank's compile data (rank -1: a process without rank).
func (out *CompileReport) Ranks() map[int]*RankCompile {
	if out == nil {
		return nil
	}
	if out.ranks == nil && len(out.PerRank) > 0 { // decoded from JSON
		out.ranks = map[int]*RankCompile{}
		for k, rc := range out.PerRank {
			rc := rc
			out.ranks[AtoiOr(k, -1)] = &rc
		}
	}
	return out.ranks
}

// SlowFast returns the ranks (>= 0) with the longest and the shortest compile time; ok is false with fewer
// than two such ranks.
func (out *CompileReport) SlowFast() (slow, fast int, ok bool) {
	rs := out.Ranks()
	slow, fast = -1, -1
	for _, r := range SortedInts(rs) {
		if r < 0 || rs[r].TotalS == nil {
			continue
		}
		if slow < 0 || *rs[r].TotalS > *rs[slow].TotalS {
			slow = r
		}
		if fast < 0 || *rs[r].TotalS < *rs[fast].TotalS {
			fast = r
		}
	}
	return slow, fast, slow >= 0 && slow != fast
}

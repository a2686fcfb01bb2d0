package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/guard"
)

// groupSnap is a copy of a recompile group taken under the aggregator's lock.
type GroupSnap struct {
	recompGroup
	RankStats map[int]RankStat
	Expected  int             // records that are automatic dynamic's first recompile
	ExpDetail map[string]bool // details of those first recompiles
	Autos     []AutoFirst     // those first recompiles, with what the dynamic log showed of each (dyn)
	// static: the first recompiles the dynamic log shows kept their input static (no symbol made): no automatic
	// dynamic, whether refuted by a later recompile or not
	Static []AutoFirst
}

// countExpected sets expected and expDetail from autos.
func (g *GroupSnap) countExpected() {
	g.Expected, g.ExpDetail = len(g.Autos), map[string]bool{}
	for _, af := range g.Autos {
		g.ExpDetail[af.detail] = true
	}
}

// withoutAutomaticDynamic is g with no recompile of the processes off (their rank) expected: automatic dynamic
// was off there (the probe's dynamo.automatic_dynamic_shapes). g itself is unchanged.
func (g *GroupSnap) WithoutAutomaticDynamic(off map[int]bool) *GroupSnap {
	c := *g
	c.Autos = nil
	c.RankStats = make(map[int]RankStat, len(g.RankStats))
	for r, st := range g.RankStats {
		if off[r] {
			st.Exp = 0
		}
		c.RankStats[r] = st
	}
	for _, af := range g.Autos {
		if !off[af.Rank] {
			c.Autos = append(c.Autos, af)
		}
	}
	c.countExpected()
	return &c
}

// detailSnap is what Report hands to Analyze.
type DetailSnap struct {
	Breaks     map[*BreakSummary]map[int]RankStat
	Skips      map[*SkipSummary]map[int]RankStat
	Partitions map[*PartitionSummary]map[int]RankStat
	Rerecords  map[*RerecordSummary]map[int]RankStat
	Groups     []*GroupSnap
}

// snapshot copies what the findings read of the report's summaries, with the recompile groups' copies (groupSnaps).
func (d *Details) Snapshot(rep *Report, groups []*GroupSnap) *DetailSnap {
	s := &DetailSnap{Breaks: map[*BreakSummary]map[int]RankStat{}, Skips: map[*SkipSummary]map[int]RankStat{},
		Groups: groups}
	stats := make([]map[int]RankStat, len(rep.GraphBreaks)) // thousands in a big run: made on every core
	InParallel(len(stats), 256, func(from, to int) {
		for i := from; i < to; i++ {
			stats[i] = rep.GraphBreaks[i].ranks.Snapshot()
		}
	})
	for i, b := range rep.GraphBreaks {
		s.Breaks[b] = stats[i]
	}
	for _, k := range rep.CudagraphSkips {
		s.Skips[k] = k.ranks.Snapshot()
	}
	s.Partitions = map[*PartitionSummary]map[int]RankStat{}
	for _, p := range rep.CudagraphPartitions {
		s.Partitions[p] = p.ranks.Snapshot()
	}
	s.Rerecords = map[*RerecordSummary]map[int]RankStat{}
	for _, r := range rep.CudagraphRerecords {
		s.Rerecords[r] = r.ranks.Snapshot()
	}
	return s
}

// groupSnaps copies the recompile groups as the findings read them. It reads only the details (the groups and the
// dynamic log's shapes), so Report makes it while it assembles the rest, once nothing folds any more.
func (d *Details) groupSnaps() []*GroupSnap {
	var out []*GroupSnap
	for _, g := range d.groups {
		gs := &GroupSnap{recompGroup: *g, RankStats: g.ranks.Snapshot(), ExpDetail: map[string]bool{}}
		gs.Classes = append([]guard.Class(nil), g.Classes...)
		gs.Guards = append([]string(nil), g.Guards...)
		gs.Evidence = append([]Evidence(nil), g.Evidence...)
		gs.Cids = append([]logparse.CompileID(nil), g.Cids...)
		gs.ranks, gs.auto, gs.autoIdx = perRank{}, nil, nil
		for i := range g.auto {
			af := &g.auto[i]
			c := *af
			c.Dyn, c.Marked, c.ByTrace = d.shapes.verdict(af)
			switch {
			case c.Dyn == DynStatic:
				gs.Static = append(gs.Static, c)
				if !af.refuted { // counted expected when it was recorded
					st := gs.RankStats[af.Rank]
					st.Exp--
					gs.RankStats[af.Rank] = st
				}
			case !af.refuted:
				gs.Autos = append(gs.Autos, c)
			}
		}
		SortAutos(gs.Autos)
		SortAutos(gs.Static)
		gs.countExpected()
		out = append(out, gs)
	}
	return out
}

func SplitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

var fileLine = regexp.MustCompile(`File "([^"]+)", line (\d+)(?:, in (\S+))?`)

// parseFileLine reads a traceback frame line.
func parseFileLine(l string) (logparse.Frame, bool) {
	m := fileLine.FindStringSubmatch(l)
	if m == nil {
		return logparse.Frame{}, false
	}
	n, _ := strconv.Atoi(m[2])
	return logparse.Frame{File: m[1], Line: n, Func: m[3]}, true
}

func ContainsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasDetail(list []guard.Class, d string) bool {
	for _, x := range list {
		if x.Detail == d {
			return true
		}
	}
	return false
}

// autoConfirmed: the dynamic log shows every expected recompile of g made its input symbolic.
func (g *GroupSnap) AutoConfirmed() bool {
	for _, af := range g.Autos {
		if af.Dyn != DynSymbol {
			return false
		}
	}
	return len(g.Autos) > 0
}

// assumedWhy says, of an expected recompile the dynamic log does not confirm, how it could be: "TORCH_LOGS=dynamic
// would show it" where the log was not on for a compile, else that it does not settle it.
func (g *GroupSnap) AssumedWhy() string {
	for _, af := range g.Autos {
		if af.Dyn == dynNotLogged {
			return "TORCH_LOGS=dynamic would show it"
		}
	}
	for _, af := range g.Autos {
		if af.Dyn == DynUnclear && !af.ByTrace {
			return "the dynamic log does not settle it"
		}
	}
	return "the trace does not settle it"
}

// traceShows is the title's words on what a TORCH_TRACE file showed of g's expected recompiles, where it is what
// confirms one (" (the trace shows x[0] became a symbol at 0/1)"; "" where the dynamic log confirms them all).
func (g *GroupSnap) TraceShows() string {
	var first *AutoFirst
	n := 0
	seen := map[string]bool{} // what at which compile id: the ranks of one run share them
	for i := range g.Autos {
		if af := &g.Autos[i]; af.Dyn == DynSymbol && af.ByTrace && !seen[af.What()+" "+af.Cid.String()] {
			seen[af.What()+" "+af.Cid.String()] = true
			if first == nil {
				first = af
			}
			n++
		}
	}
	if first == nil {
		return ""
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(", and %d more", n-1)
	}
	return fmt.Sprintf(" (the trace shows %s became a symbol at %s%s)", first.What(), first.Cid, more)
}

// staticBy names what shows g's static recompiles made no symbol: the dynamic log, or a TORCH_TRACE file.
func (g *GroupSnap) StaticBy() string {
	for _, af := range g.Static {
		if !af.ByTrace {
			return "the dynamic log"
		}
	}
	return "the trace"
}

// staticCause says what keeps an input static whose recompile the dynamic log shows made no symbol: where 2.14's
// automatic dynamic marked it dynamic first, not dynamic=False.
func (g *GroupSnap) StaticCause(scalar bool) string {
	for _, af := range g.Static {
		if af.Marked {
			if scalar {
				return "automatic dynamic marked it dynamic, yet a config kept it static"
			}
			return "automatic dynamic marked it dynamic, yet mark_static or a config kept it static"
		}
	}
	if scalar {
		return "dynamic=False or automatic dynamic off"
	}
	return "dynamic=False, mark_static or automatic dynamic off"
}

package triage

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// groupSnap is a copy of a recompile group taken under the aggregator's lock.
type groupSnap struct {
	recompGroup
	rankStats map[int]rankStat
	expected  int             // records that are automatic dynamic's first recompile
	expDetail map[string]bool // details of those first recompiles
	autos     []autoFirst     // those first recompiles, with what the dynamic log showed of each (dyn)
	// static: the first recompiles the dynamic log shows kept their input static (no symbol made): no automatic
	// dynamic, whether refuted by a later recompile or not
	static []autoFirst
}

// countExpected sets expected and expDetail from autos.
func (g *groupSnap) countExpected() {
	g.expected, g.expDetail = len(g.autos), map[string]bool{}
	for _, af := range g.autos {
		g.expDetail[af.detail] = true
	}
}

// withoutAutomaticDynamic is g with no recompile of the processes off (their rank) expected: automatic dynamic
// was off there (the probe's dynamo.automatic_dynamic_shapes). g itself is unchanged.
func (g *groupSnap) withoutAutomaticDynamic(off map[int]bool) *groupSnap {
	c := *g
	c.autos = nil
	c.rankStats = make(map[int]rankStat, len(g.rankStats))
	for r, st := range g.rankStats {
		if off[r] {
			st.Exp = 0
		}
		c.rankStats[r] = st
	}
	for _, af := range g.autos {
		if !off[af.rank] {
			c.autos = append(c.autos, af)
		}
	}
	c.countExpected()
	return &c
}

// detailSnap is what Report hands to Analyze.
type detailSnap struct {
	breaks     map[*BreakSummary]map[int]rankStat
	skips      map[*SkipSummary]map[int]rankStat
	partitions map[*PartitionSummary]map[int]rankStat
	rerecords  map[*RerecordSummary]map[int]rankStat
	groups     []*groupSnap
}

// snapshot copies what the findings read of the report's summaries, with the recompile groups' copies (groupSnaps).
func (d *details) snapshot(rep *Report, groups []*groupSnap) *detailSnap {
	s := &detailSnap{breaks: map[*BreakSummary]map[int]rankStat{}, skips: map[*SkipSummary]map[int]rankStat{},
		groups: groups}
	stats := make([]map[int]rankStat, len(rep.GraphBreaks)) // thousands in a big run: made on every core
	inParallel(len(stats), 256, func(from, to int) {
		for i := from; i < to; i++ {
			stats[i] = rep.GraphBreaks[i].ranks.snapshot()
		}
	})
	for i, b := range rep.GraphBreaks {
		s.breaks[b] = stats[i]
	}
	for _, k := range rep.CudagraphSkips {
		s.skips[k] = k.ranks.snapshot()
	}
	s.partitions = map[*PartitionSummary]map[int]rankStat{}
	for _, p := range rep.CudagraphPartitions {
		s.partitions[p] = p.ranks.snapshot()
	}
	s.rerecords = map[*RerecordSummary]map[int]rankStat{}
	for _, r := range rep.CudagraphRerecords {
		s.rerecords[r] = r.ranks.snapshot()
	}
	return s
}

// groupSnaps copies the recompile groups as the findings read them. It reads only the details (the groups and the
// dynamic log's shapes), so Report makes it while it assembles the rest, once nothing folds any more.
func (d *details) groupSnaps() []*groupSnap {
	var out []*groupSnap
	for _, g := range d.groups {
		gs := &groupSnap{recompGroup: *g, rankStats: g.ranks.snapshot(), expDetail: map[string]bool{}}
		gs.classes = append([]GuardClass(nil), g.classes...)
		gs.guards = append([]string(nil), g.guards...)
		gs.evidence = append([]Evidence(nil), g.evidence...)
		gs.cids = append([]logparse.CompileID(nil), g.cids...)
		gs.ranks, gs.auto, gs.autoIdx = perRank{}, nil, nil
		for i := range g.auto {
			af := &g.auto[i]
			c := *af
			c.dyn, c.marked, c.byTrace = d.shapes.verdict(af)
			switch {
			case c.dyn == dynStatic:
				gs.static = append(gs.static, c)
				if !af.refuted { // counted expected when it was recorded
					st := gs.rankStats[af.rank]
					st.Exp--
					gs.rankStats[af.rank] = st
				}
			case !af.refuted:
				gs.autos = append(gs.autos, c)
			}
		}
		sortAutos(gs.autos)
		sortAutos(gs.static)
		gs.countExpected()
		out = append(out, gs)
	}
	return out
}

func splitLines(s string) []string {
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

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasDetail(list []GuardClass, d string) bool {
	for _, x := range list {
		if x.Detail == d {
			return true
		}
	}
	return false
}

// autoConfirmed: the dynamic log shows every expected recompile of g made its input symbolic.
func (g *groupSnap) autoConfirmed() bool {
	for _, af := range g.autos {
		if af.dyn != dynSymbol {
			return false
		}
	}
	return len(g.autos) > 0
}

// assumedWhy says, of an expected recompile the dynamic log does not confirm, how it could be: "TORCH_LOGS=dynamic
// would show it" where the log was not on for a compile, else that it does not settle it.
func (g *groupSnap) assumedWhy() string {
	for _, af := range g.autos {
		if af.dyn == dynNotLogged {
			return "TORCH_LOGS=dynamic would show it"
		}
	}
	for _, af := range g.autos {
		if af.dyn == dynUnclear && !af.byTrace {
			return "the dynamic log does not settle it"
		}
	}
	return "the trace does not settle it"
}

// traceShows is the title's words on what a TORCH_TRACE file showed of g's expected recompiles, where it is what
// confirms one (" (the trace shows x[0] became a symbol at 0/1)"; "" where the dynamic log confirms them all).
func (g *groupSnap) traceShows() string {
	var first *autoFirst
	n := 0
	seen := map[string]bool{} // what at which compile id: the ranks of one run share them
	for i := range g.autos {
		if af := &g.autos[i]; af.dyn == dynSymbol && af.byTrace && !seen[af.what()+" "+af.cid.String()] {
			seen[af.what()+" "+af.cid.String()] = true
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
	return fmt.Sprintf(" (the trace shows %s became a symbol at %s%s)", first.what(), first.cid, more)
}

// staticBy names what shows g's static recompiles made no symbol: the dynamic log, or a TORCH_TRACE file.
func (g *groupSnap) staticBy() string {
	for _, af := range g.static {
		if !af.byTrace {
			return "the dynamic log"
		}
	}
	return "the trace"
}

// staticCause says what keeps an input static whose recompile the dynamic log shows made no symbol: where 2.14's
// automatic dynamic marked it dynamic first, not dynamic=False.
func (g *groupSnap) staticCause(scalar bool) string {
	for _, af := range g.static {
		if af.marked {
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

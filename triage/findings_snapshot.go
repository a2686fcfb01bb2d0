package triage

import (
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

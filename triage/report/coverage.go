package report

import (
	"fmt"
	"sort"
)

// How much of the program ran compiled, as Dynamo counted it in each process (the probe's counters at exit): the
// number beside the graph-break count that tells a torch that breaks more because it captures more (2.15's nested
// graph breaks) from one that captures less. PyTorch's own CI tracks the same two numbers: calls_captured (higher
// is better) and fallbacks_to_eager = frames total - ok (lower is better).

// Coverage is the run's capture, summed over its processes, and per rank.
type Coverage struct {
	CallsCaptured int `json:"calls_captured"` // counters["stats"]["calls_captured"]: calls put into graphs
	UniqueGraphs  int `json:"unique_graphs"`  // counters["stats"]["unique_graphs"]
	FramesTotal   int `json:"frames_total"`   // counters["frames"]["total"]: frames Dynamo began
	FramesOK      int `json:"frames_ok"`      // counters["frames"]["ok"]: of them, compiled
	// FallbacksToEager is FramesTotal - FramesOK: frames that ran eager
	FallbacksToEager int            `json:"fallbacks_to_eager"`
	Ranks            []RankCoverage `json:"ranks"`
}

// RankCoverage is one process's capture (Rank -1: a process that is no rank).
type RankCoverage struct {
	Rank             int `json:"rank"`
	CallsCaptured    int `json:"calls_captured"`
	UniqueGraphs     int `json:"unique_graphs"`
	FramesTotal      int `json:"frames_total"`
	FramesOK         int `json:"frames_ok"`
	FallbacksToEager int `json:"fallbacks_to_eager"`
}

// CoverageOf sums the probes' counters; nil when no process began a frame (no probe, nothing compiled).
func CoverageOf(probes []ProcessInfo) *Coverage {
	c := &Coverage{Ranks: []RankCoverage{}}
	for _, p := range probes {
		st, fr := p.Counters["stats"], p.Counters["frames"]
		if fr["total"] == 0 && st["calls_captured"] == 0 {
			continue
		}
		r := RankCoverage{Rank: p.Rank, CallsCaptured: int(st["calls_captured"]), UniqueGraphs: int(st["unique_graphs"]),
			FramesTotal: int(fr["total"]), FramesOK: int(fr["ok"])}
		if p.RankSource == "default" {
			r.Rank = -1
		}
		r.FallbacksToEager = max(r.FramesTotal-r.FramesOK, 0)
		c.CallsCaptured += r.CallsCaptured
		c.UniqueGraphs += r.UniqueGraphs
		c.FramesTotal += r.FramesTotal
		c.FramesOK += r.FramesOK
		c.FallbacksToEager += r.FallbacksToEager
		c.Ranks = append(c.Ranks, r)
	}
	if len(c.Ranks) == 0 {
		return nil
	}
	sort.SliceStable(c.Ranks, func(i, j int) bool { return c.Ranks[i].Rank < c.Ranks[j].Rank })
	return c
}

// Words says the capture in one line: "84 calls captured in 19 graphs; 0 of 40 frames fell back to eager".
func (c *Coverage) Words() string {
	if c == nil {
		return ""
	}
	return fmt.Sprintf("%s captured in %s; %d of %s fell back to eager", Plural(c.CallsCaptured, "call"),
		Plural(c.UniqueGraphs, "graph"), c.FallbacksToEager, Plural(c.FramesTotal, "frame"))
}

// MoreCaptured says whether b captured more than a and fell back to eager no more often: a rise in graph breaks
// beside it is the price of capturing more, not a regression (nested graph breaks resume inside frames).
func MoreCaptured(a, b *Coverage) bool {
	return a != nil && b != nil && b.CallsCaptured > a.CallsCaptured && b.FallbacksToEager <= a.FallbacksToEager
}

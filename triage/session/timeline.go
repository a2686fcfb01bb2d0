package session

import (
	"sort"
	"time"

	"github.com/torchtriage/torchtriage/logparse"
)

// Mark is one event on a run's timeline: a compile record (Kind is the record's kind) or a stall.
type Mark struct {
	At    time.Duration // since the start of the run (live) or the first record (opened logs)
	Rank  int           // -1: a process without rank, or the whole run (stalls)
	Kind  logparse.Kind
	Stall bool
}

// onTimeline says whether a record kind is drawn on the timeline.
func onTimeline(k logparse.Kind) bool {
	switch k {
	case logparse.KindGraphBreak, logparse.KindRecompile, logparse.KindLimitHit, logparse.KindCudagraphSkip,
		logparse.KindCompileError:
		return true
	}
	return false
}

// recordTimeline places records by their log time stamps, relative to the first one.
func recordTimeline(recs []*logparse.Record) ([]Mark, time.Duration) {
	var first time.Time
	for _, r := range recs {
		if !r.Time.IsZero() && (first.IsZero() || r.Time.Before(first)) {
			first = r.Time
		}
	}
	var out []Mark
	var span time.Duration
	for _, r := range recs {
		if !onTimeline(r.Kind) || r.Time.IsZero() {
			continue
		}
		at := r.Time.Sub(first)
		out = append(out, Mark{At: at, Rank: r.Rank, Kind: r.Kind})
		span = max(span, at)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out, span
}

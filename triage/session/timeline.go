package session

import (
	"cmp"
	"slices"
	"time"

	"github.com/torchtriage/torchtriage/logparse"
)

// Mark is one event on a run's timeline: a compile record (Kind is the record's kind) or a stall.
type Mark struct {
	At    time.Duration // since the start of the run (live) or the first record (opened logs)
	Rank  int           // -1: a process without rank, or the whole run (stalls)
	Kind  logparse.Kind
	Stall bool
	End   time.Duration // a stall's end (the program's next output, or the run's end); 0 while it goes on
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

// sortMarks puts marks in time order (ties by rank, then kind: the same order however the inputs were parsed).
func sortMarks(ms []Mark) {
	slices.SortFunc(ms, func(a, b Mark) int {
		return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(a.Rank, b.Rank), cmp.Compare(a.Kind, b.Kind))
	})
}

package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// gcBudget sets the collector for the whole process: most commands are short-lived with a small live heap
// (report holds counts, not records), so it collects seldom (GC percent 400) but never lets the heap pass
// budget. A live heap can outgrow the budget (tens of thousands of distinct findings): with a fixed limit the
// collector then ran continually (a third of the CPU, twice the time for an 851 MB log). So after each
// collection the limit follows the live heap: headroom times it when that is more than budget. The returned
// function stops that and restores the collector's defaults (tests).
func gcBudget(budget int64, headroom float64) (stop func()) {
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(budget)
	var stopped atomic.Bool
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var after func(*gcSentinel)
	after = func(s *gcSentinel) {
		if stopped.Load() {
			return
		}
		metrics.Read(live)
		limit := budget
		if l := int64(float64(live[0].Value.Uint64()) * headroom); l > limit {
			limit = l
		}
		debug.SetMemoryLimit(limit)
		runtime.SetFinalizer(s, after) // and again after the next collection
	}
	runtime.SetFinalizer(&gcSentinel{}, after)
	return func() {
		stopped.Store(true)
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

// gcSentinel is garbage from the start: its finalizer runs after each collection (not zero-sized: those may share
// an address, and then their finalizers need not run).
type gcSentinel struct{ _ [16]byte }

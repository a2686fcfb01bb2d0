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
// stop ends that and restores the collector's defaults (tests); oneShot is for a command that reads its inputs
// once and exits (cli.OneShot): no collection until the heap nears oneShotBudget (5/8 of budget: 120 MB of 192),
// then as above. Its first collections (at 16 and ~60 MB of bench/many.sh's load) marked little but the parsed
// records waiting to be aggregated, and cost 5-10% of the CPU. Waiting for 216 MB (9/8 of budget) instead made the
// 1 GB report (bench/perf.sh, ~290 MB allocated in all) peak at 220 MB of RSS, every page of its heap new to the
// process (a page fault each); at 120 MB it peaks at ~135 MB for the same CPU (one collection more, of a ~20 MB
// live heap, against ~20,000 page faults fewer). The TUI and live runs keep collecting from the start, within
// budget.
func gcBudget(budget int64, headroom float64) (stop, oneShot func()) {
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(budget)
	var stopped, waiting atomic.Bool
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var after func(*gcSentinel)
	after = func(s *gcSentinel) {
		if stopped.Load() {
			return
		}
		if waiting.CompareAndSwap(true, false) {
			debug.SetGCPercent(gcPercent)
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
	stop = func() {
		stopped.Store(true)
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}
	oneShot = func() {
		if !stopped.Load() && waiting.CompareAndSwap(false, true) {
			debug.SetGCPercent(-1) // the memory limit alone starts the next collection
			debug.SetMemoryLimit(oneShotBudget(budget))
		}
	}
	return stop, oneShot
}

// oneShotBudget is the memory limit a one-shot command's first collection waits for: 5/8 of budget (120 MB of 192;
// the 1 GB report of bench/perf.sh then peaks at ~135 MB of RSS, its mapped windows and the binary included); after
// it, budget again.
func oneShotBudget(budget int64) int64 { return budget * 5 / 8 }

// gcPercent is the collector's GC percent (but while a one-shot command waits for its first collection, and in the
// TUI: liveGCPercent).
const gcPercent = 400

// liveGCPercent is the collector's GC percent in the TUI (tui.LiveGC): a screen that follows a run for hours holds a
// small heap that grows with what the run prints (the log's index, the findings), and 400 let five times it pile up
// between collections, so RSS grew four to five times as fast as the heap (issue 39: ~8 MB a minute at 50k lines/s).
const liveGCPercent = 100

// liveGC is tui.LiveGC: the TUI's collector.
func liveGC() { debug.SetGCPercent(liveGCPercent) }

// gcSentinel is garbage from the start: its finalizer runs after each collection (not zero-sized: those may share
// an address, and then their finalizers need not run).
type gcSentinel struct{ _ [16]byte }

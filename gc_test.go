package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The memory limit follows a live heap that outgrew the budget (headroom times it) and comes back to the budget
// when the heap shrinks: a fixed limit below the live heap made the collector run continually.
func TestGCBudgetFollowsTheLiveHeap(t *testing.T) {
	const budget = 16 << 20
	stop := gcBudget(budget, 1.5)
	defer stop()
	limitAfterGC := func(want func(int64) bool) int64 {
		t.Helper()
		var got int64
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			runtime.GC() // the finalizer runs after it, on its own goroutine
			if got = debug.SetMemoryLimit(-1); want(got) {
				return got
			}
		}
		t.Fatalf("memory limit %d MB", got>>20)
		return 0
	}
	big := make([][]byte, 64)
	for i := range big {
		big[i] = make([]byte, 1<<20) // 64 MB live, four times the budget
	}
	limitAfterGC(func(l int64) bool { return l >= 64<<20*3/2 })
	runtime.KeepAlive(big)
	big = nil
	limitAfterGC(func(l int64) bool { return l == budget })
}

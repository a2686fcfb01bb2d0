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
	stop, _ := gcBudget(budget, 1.5)
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

// A one-shot command's collector waits for its first collection at oneShotBudget, below the budget (what bounds the
// peak RSS of the 1 GB report): no GC percent until then, then the usual one again (and the limit follows the live
// heap as before).
func TestGCOneShotWaitsForTheBudget(t *testing.T) {
	stop, oneShot := gcBudget(16<<20, 1.5)
	defer stop()
	percent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	if p := percent(); p != gcPercent {
		t.Fatalf("GC percent %d before the one-shot command, want %d", p, gcPercent)
	}
	oneShot()
	if p := percent(); p != -1 {
		t.Fatalf("GC percent %d while the one-shot command waits for its first collection, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != oneShotBudget(16<<20) || l >= 16<<20 {
		t.Fatalf("memory limit %d MB while the one-shot command waits, want %d MB", l>>20, oneShotBudget(16<<20)>>20)
	}
	for deadline := time.Now().Add(5 * time.Second); percent() != gcPercent; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("GC percent %d after a collection, want %d", percent(), gcPercent)
		}
		runtime.GC() // the finalizer runs after it, on its own goroutine
	}
	if l := debug.SetMemoryLimit(-1); l != 16<<20 {
		t.Errorf("memory limit %d MB after the first collection, want the budget, 16 MB", l>>20)
	}
}

package report

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// inParallel calls fn on the chunks [from, to) of [0, n), at most chunk long, on GOMAXPROCS goroutines, and
// returns when every chunk is done. fn writes only what its chunk owns (the i-th result of the i-th input).
func InParallel(n, chunk int, fn func(from, to int)) {
	workers := min(runtime.GOMAXPROCS(0), (n+chunk-1)/max(chunk, 1))
	if workers <= 1 {
		if n > 0 {
			fn(0, n)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				from := int(next.Add(int64(chunk))) - chunk
				if from >= n {
					return
				}
				fn(from, min(from+chunk, n))
			}
		})
	}
	wg.Wait()
}

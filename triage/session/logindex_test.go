package session

import (
	"fmt"
	"runtime"
	"testing"
)

// A live run's log keeps only its index in memory, and that index is a few hundredths of a byte a line: 2M lines
// of ~70 bytes with a ranked line every 50,000 (as bench/live.sh's flood) hold under 0.1 bytes a line (the marks
// as []struct{line int32; off int64} and the ranks in dense 4096-line chunks held ~0.4; ~24 KB/s at 50k lines/s:
// issue 39).
func TestLiveLogIndexBytesPerLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 2M lines")
	}
	w := NewFileLogWriter([]string{"run1:stdout", "run1:stderr"}, []string{"/nonexistent/stdout.log", "/nonexistent/stderr.log"})
	var chunk []byte
	for j := 0; j < 10000; j++ {
		chunk = fmt.Appendf(chunk, "step %d: loss 0.%06d xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", j, j)
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	write := func(lines int) {
		for n := 0; n < lines; n += 10000 {
			w.Write(0, chunk)
			if n%50000 == 0 {
				w.Write(1, []byte("[rank0]:V1121 07:47:33.827000 1 torch/_dynamo/symbolic_convert.py:5368] [0/0] "+
					"[__graph_breaks] Graph break in user code at /w/flood.py:1\n"))
			}
			_ = w.View() // as the live run hands views out
		}
	}
	const lines = 2000000
	write(lines)
	if got := w.View().Len(); got < lines {
		t.Fatalf("the log has %d lines", got)
	}
	with := heap()
	runtime.KeepAlive(w)
	w = nil
	held := float64(with) - float64(heap()) // what the writer (its index) holds
	t.Logf("the log's index holds %.0f bytes for %d lines: %.3f a line", held, lines, held/lines)
	if perLine := held / lines; perLine > 0.1 {
		t.Errorf("the log's index holds %.0f bytes for %d lines: %.3f a line, want ≤ 0.1", held, lines, perLine)
	}
}

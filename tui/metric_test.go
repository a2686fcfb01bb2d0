package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"

	"github.com/torchtriage/torchtriage/triage/runs"
)

// The --metric is read from a run's combined.log as it is matched, never the whole file at once: a run that
// printed gigabytes costs a line's worth (it used to read the file into memory, and every match with it).
func TestMetricOfABigRunIsReadLineByLine(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	matches := 1 // the last line's
	for i := 0; log.Len() < 32<<20; i++ {
		if i%1000 == 0 {
			ms := 12.25
			if i == 0 {
				ms = 950.5 // the first step compiles: warm-up
			}
			fmt.Fprintf(&log, "step %d: step_ms: %g\n", i, ms)
			matches++
		} else {
			fmt.Fprintf(&log, "step %d: loss 0.%06d and some padding to make the line longer ........\n", i, i)
		}
	}
	log.WriteString("step_ms: 12.25\r\nend\n")
	if err := os.WriteFile(filepath.Join(dir, "combined.log"), log.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), []byte(`{"id": 1, "state": "exited"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newModel(options{mode: modeOpen, metric: regexp.MustCompile(`step_ms: ([0-9.]+)$`)})
	r := m.run(1)
	r.hasMeta, r.meta = true, runs.Meta{ID: 1, Dir: dir}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	msg := m.recordMetric(r)()
	runtime.ReadMemStats(&after)
	got, ok := msg.(metricMsg)
	if !ok || got.stats.Value != 12.25 || got.stats.Matches != matches {
		t.Fatalf("metric %+v, want the median 12.25 of %d matches (a CRLF line ends where $ matches)", msg, matches)
	}
	// (under -race sync.Pool keeps nothing: the regexp's machines are allocated again for every line)
	if alloc := after.TotalAlloc - before.TotalAlloc; !raceEnabled && alloc > uint64(log.Len()/8) {
		t.Errorf("reading the metric of a %d MB log allocated %d MB", log.Len()>>20, alloc>>20)
	}
}

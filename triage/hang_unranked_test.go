package triage_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// One process without a rank (no torchrun, no RANK), stopped by the tool's --timeout while it waits on an event
// (testdata/recorded/stopped-single-hang, real 2.14.1 and 2.6.0): its stack dump names no rank, but the probe's
// start file names the process by its main thread's id, so the bound a ranked dump gets holds for it too: at most
// from its last compile's end (the probe's compile state) to the run's end (29.9 s on 2.14, 33.8 s on 2.6). Before,
// a place of no rank had no bound. Where the probe's files name no such process (two processes, neither's thread
// the dump's), the basis says there is not even a bound, and none is made up.
func TestUnrankedDumpGetsTheBoundOfItsProcess(t *testing.T) {
	for dir, want := range map[string]float64{"runs": 29.9, "runs-2.6": 33.8} {
		run := filepath.Join("..", "testdata", "recorded", "stopped-single-hang", dir, "0001-breaks")
		a := analyzeStoredRun(t, run)
		if a.Hang == nil || len(a.Hang.Ranks) != 1 {
			t.Fatalf("%s: hang %+v", dir, a.Hang)
		}
		r := a.Hang.Ranks[0]
		if r.Rank != -1 || r.SinceS != nil || r.AtMostS == nil || *r.AtMostS != want ||
			!strings.HasPrefix(r.SinceText(), "at most ") || !strings.HasSuffix(r.SinceText(), "(since its last compile)") {
			t.Errorf("%s: rank %d since %v at most %v %q", dir, r.Rank, r.SinceS, r.AtMostS, r.SinceText())
		}

		// the same run as if two processes had started and neither's main thread were the dump's
		tmp := copyRun(t, run)
		starts, _ := filepath.Glob(filepath.Join(tmp, "probe", "start-rank0-*.json"))
		compiles, _ := filepath.Glob(filepath.Join(tmp, "probe", "compile-rank0-*.json"))
		if len(starts) != 1 || len(compiles) != 1 {
			t.Fatalf("%s: probe files %v %v", dir, starts, compiles)
		}
		st, _ := os.ReadFile(starts[0])
		cs, _ := os.ReadFile(compiles[0])
		other := strings.Replace(string(st), `"thread": `, `"thread": 7`, 1) // another thread id
		writeFile(t, filepath.Dir(starts[0]), filepath.Base(starts[0]), other)
		writeFile(t, filepath.Dir(starts[0]), "start-rank0-1.json", strings.Replace(other, `"pid": `, `"pid": 1`, 1))
		writeFile(t, filepath.Dir(starts[0]), "compile-rank0-1.json", strings.Replace(string(cs), `"pid": `, `"pid": 1`, 1))
		a = analyzeStoredRun(t, tmp)
		if a.Hang == nil || len(a.Hang.Ranks) != 1 || a.Hang.Ranks[0].AtMostS != nil ||
			!slices.ContainsFunc(a.Hang.Basis, func(s string) bool { return strings.Contains(s, "not even that bound") }) {
			t.Errorf("%s: a dump the probe's files do not place: %+v", dir, a.Hang)
		}
	}
}

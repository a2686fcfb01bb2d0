package triage

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/report"
)

func countsOf(t *testing.T, paths ...string) expectedCounts {
	t.Helper()
	rep, _, err := BuildReport(paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Counts
	got := expectedCounts{c.GraphBreaks, c.Recompiles, c.RecompileLimitHits, c.CudagraphSkips, c.CompileErrors,
		c.CudagraphPartitions, c.CudagraphRerecordChecks, c.RuntimeErrors, rep.Ranks}
	if got.Ranks == nil {
		got.Ranks = []int{}
	}
	return got
}

// Each X.trace/ dir was recorded in the same run as X.withtrace.log. The trace alone must show at least what
// that text shows (the text may have had TORCH_LOGS off), trace + text must count every event once (equal to
// the larger of the two per count), and for the repros checked by hand the trace gives the exact ground truth.
func TestTraceDirsMatchTextCaptures(t *testing.T) {
	exp := LoadExpected(t)
	dirs, _ := filepath.Glob(filepath.Join(Fixtures, "torch-*", "*.trace"))
	if len(dirs) < 10 {
		t.Fatalf("found only %d trace dirs", len(dirs))
	}
	exact := map[string]expectedCounts{
		"gb_recompile":    {GraphBreaks: 3, Recompiles: 7, RecompileLimitHits: 1, Ranks: []int{}},
		"r05_dist_c10d":   {GraphBreaks: 1, Recompiles: 3, Ranks: []int{0, 1}},
		"r12_limit_str":   {Recompiles: 8, RecompileLimitHits: 1, Ranks: []int{}},
		"r07_fullgraph":   {CompileErrors: 1, Ranks: []int{}},
		"r06_dist_funcol": {Ranks: []int{0, 1}},
	}
	for _, d := range dirs {
		base := strings.TrimSuffix(d, ".trace")
		rel, _ := filepath.Rel(Fixtures, base)
		text := exp[filepath.ToSlash(rel)+".withtrace.log"]
		t.Run(rel, func(t *testing.T) {
			alone := countsOf(t, d)
			both := countsOf(t, d, base+".withtrace.log")
			// a trace records compile-time events only (no run-time CUDA-graph skips, runtime errors, V-level
			// cudagraphs records): together, each count is the larger of the two, never their sum
			textAlone := countsOf(t, base+".withtrace.log")
			if want := maxCounts(alone, textAlone); !reflect.DeepEqual(want, both) {
				t.Errorf("trace + text %+v, want %+v (each event once): trace %+v, text %+v", both, want, alone, textAlone)
			}
			if alone.GraphBreaks < text.GraphBreaks || alone.Recompiles < text.Recompiles ||
				alone.RecompileLimitHits < text.RecompileLimitHits || alone.CompileErrors < text.CompileErrors {
				t.Errorf("trace %+v shows less than its text capture %+v", alone, text)
			}
			if want, ok := exact[filepath.Base(base)]; ok && !reflect.DeepEqual(alone, want) {
				t.Errorf("trace: got %+v want %+v", alone, want)
			}
		})
	}
}

func TestTlparseInputs(t *testing.T) {
	dir := filepath.Join(Fixtures, "tlparse")
	cases := map[string]expectedCounts{
		"comp_failure.log": {CompileErrors: 1, Ranks: []int{}},
		"comp_metrics.log": {GraphBreaks: 1, Ranks: []int{}},
		"multi_rank_logs__dedicated_log_torch_trace_rank_0.log": {CompileErrors: 1, Ranks: []int{0}},
		"simple.log": {Ranks: []int{}},
	}
	for name, want := range cases {
		if got := countsOf(t, filepath.Join(dir, name)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v want %+v", name, got, want)
		}
	}
	rep, _, err := BuildReport([]string{filepath.Join(dir, "comp_metrics.log")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.GraphBreaks[0].Reason, "skip function graph_break") {
		t.Errorf("restart reason not kept: %q", rep.GraphBreaks[0].Reason)
	}
}

func TestRankFromFileNameAndLogDirTree(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(Fixtures, "torch-2.14/r02_item.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, p := range []string{"job/attempt_0/0/stderr.log", "job/attempt_0/1/stderr.log"} {
		full := filepath.Join(root, p)
		_ = os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, _, err := BuildReport([]string{root}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep.Ranks, []int{0, 1}) || rep.PerRank["1"].GraphBreaks != 2 {
		t.Fatalf("ranks %v per-rank %+v", rep.Ranks, rep.PerRank)
	}
}

// TORCH_TRACE's compilation_metrics give the frame compiles, their time and the graphs each process compiled.
func TestTraceCompilesAndUniqueGraphs(t *testing.T) {
	rep, _, err := BuildReport([]string{filepath.Join(Fixtures, "torch-2.14/r05_dist_c10d.trace")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Compiles) != 2 || rep.Compiles[0].Function != "step" || rep.Compiles[0].Compiles != 4 ||
		!reflect.DeepEqual(rep.Compiles[0].Ranks, []int{0, 1}) || rep.Compiles[0].Seconds <= 0 || rep.Compiles[1].Graphs != 2 {
		t.Fatalf("compiles %+v %+v", rep.Compiles[0], rep.Compiles[1])
	}
	if rep.UniqueGraphs != 4 { // rank 0: step twice + its resume function twice; rank 1: step twice
		t.Fatalf("unique graphs %d", rep.UniqueGraphs)
	}
	text, _, _ := BuildReport([]string{filepath.Join(Fixtures, "torch-2.14/r05_dist_c10d.triage.log")}, nil)
	if text.UniqueGraphs != -1 || len(text.Compiles) != 0 {
		t.Fatalf("a text log knows no graphs: %d %v", text.UniqueGraphs, text.Compiles)
	}
}

// maxCounts is, field by field, the larger of two counts (ranks: the union).
func maxCounts(a, b expectedCounts) expectedCounts {
	ranks := map[int]bool{}
	for _, r := range append(append([]int{}, a.Ranks...), b.Ranks...) {
		ranks[r] = true
	}
	return expectedCounts{max(a.GraphBreaks, b.GraphBreaks), max(a.Recompiles, b.Recompiles),
		max(a.RecompileLimitHits, b.RecompileLimitHits), max(a.CudagraphSkips, b.CudagraphSkips),
		max(a.CompileErrors, b.CompileErrors), max(a.CudagraphPartitions, b.CudagraphPartitions),
		max(a.CudagraphRerecords, b.CudagraphRerecords), max(a.RuntimeErrors, b.RuntimeErrors), report.SortedInts(ranks)}
}

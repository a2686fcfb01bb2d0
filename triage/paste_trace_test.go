package triage

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TORCH_TRACE files out of their directory (pasted-logs.md §6).

// copyTrace writes the concatenation of srcs under dir as name.
func copyTrace(t *testing.T, dir, name string, srcs ...string) string {
	t.Helper()
	var b []byte
	for _, s := range srcs {
		data, err := os.ReadFile(filepath.Join(Fixtures, s))
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, data...)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// One file, one rank: the envelopes' rank beats the rank in a hand-copied file's name; the name's rank counts
// only when no envelope carries one.
func TestTraceOneFileOneRank(t *testing.T) {
	dir := t.TempDir()
	withEnv := copyTrace(t, dir, "dedicated_log_torch_trace_rank_0_copy.log", "torch-2.14/r05_dist_c10d.trace/dedicated_log_torch_trace_rank_1_7itg8zb0.log")
	rep, _, err := BuildReport([]string{withEnv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Ranks, []int{1}) {
		t.Errorf("envelope rank 1 in a rank_0 file: ranks %v, want [1]", rep.Ranks)
	}
	noEnv := copyTrace(t, dir, "dedicated_log_torch_trace_rank_3_copy.log", "torch-2.14/r03_cache_limit.trace/dedicated_log_torch_trace_nlkvnrzc.log")
	rep, _, err = BuildReport([]string{noEnv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Ranks, []int{3}) {
		t.Errorf("no envelope rank in a rank_3 file: ranks %v, want [3]", rep.Ranks)
	}
}

// A trace assembled from copies repeats compile ids: a recompile_reasons artifact of a compile that reached
// compilation_metrics, or of a frame that compiled again later, is no limit hit.
func TestTraceCopiesAddNoLimitHits(t *testing.T) {
	dir := t.TempDir()
	for _, src := range []string{"torch-2.14/r03_cache_limit.trace/dedicated_log_torch_trace_nlkvnrzc.log",
		"torch-2.14/gb_recompile.trace/dedicated_log_torch_trace_ql5un06v.log",
		"torch-2.6/r03_cache_limit.trace/dedicated_log_torch_trace_pvs799ef.log"} {
		one, _, err := BuildReport([]string{copyTrace(t, dir, "dedicated_log_torch_trace_one.log", src)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		two, _, err := BuildReport([]string{copyTrace(t, dir, "dedicated_log_torch_trace_two.log", src, src)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if two.Counts.RecompileLimitHits != one.Counts.RecompileLimitHits {
			t.Errorf("%s twice: %d limit hits, once: %d", src, two.Counts.RecompileLimitHits, one.Counts.RecompileLimitHits)
		}
	}
}

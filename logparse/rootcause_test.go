package logparse

import (
	"os"
	"strings"
	"testing"
)

// torchrun's ChildFailedError names the rank that failed first ("Root Cause"), after the other failures.
func TestRootCauseRank(t *testing.T) {
	for name, want := range map[string]int{
		"../testdata/fixtures/torch-2.11-cuda/g09a_nccl_same_gpu.triage.log": 1,
	} {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		got := -3
		_ = Parse(f, Options{}, func(r *Record) {
			if r.Error != nil && r.Error.Summary {
				got = r.Error.RootCauseRank
			}
		})
		f.Close()
		if got != want {
			t.Errorf("%s: root cause rank %d, want %d", name, got, want)
		}
	}
	var got []int
	text := strings.Join([]string{"Traceback (most recent call last):", `  File "x.py", line 1, in <module>`,
		"torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ", "Failures:", "[1]:",
		"  rank      : 0 (local_rank: 0)", "Root Cause (first observed failure):", "[0]:", "  host      : localhost",
		"  rank      : 3 (local_rank: 1)", "  exitcode  : 1 (pid: 12)"}, "\n") + "\n"
	_ = Parse(strings.NewReader(text), Options{}, func(r *Record) {
		if r.Error != nil && r.Error.Summary {
			got = append(got, r.Error.RootCauseRank)
		}
	})
	if len(got) != 1 || got[0] != 3 {
		t.Errorf("synthetic summary: %v", got)
	}
}

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

// An error raised in Inductor's generated code is located at the user frame that called the compiled function.
func TestInductorCodeIsNotUserCode(t *testing.T) {
	for p, want := range map[string]bool{
		"/tmp/gpu/cache/g09a/inductor/r3/cr3t6jzeqpw3oyc4bxccullj7pmbke4j6hbk7cb5ivt6vo3zql2m.py": true,
		"/tmp/torchinductor_root/ab/whatever.py":                                                  true,
		"/home/me/proj/ab/cabc.py":                                                                false,
		"/home/me/proj/train.py":                                                                  false,
		"cr3t6jzeqpw3oyc4bxccullj7pmbke4j6hbk7cb5ivt6vo3zql2m.py":                                 false,
	} {
		if got := IsLibraryFile(p); got != want {
			t.Errorf("%s: library %v, want %v", p, got, want)
		}
	}
}

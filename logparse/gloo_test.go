package logparse

import (
	"fmt"
	"path/filepath"
	"testing"
)

// gloo's size check of a real 2-rank collective whose shapes differ (testdata/dist-hangs, h02b_mismatch_shapes:
// [4, 8] on rank 0, [6, 8] on rank 1): rank 0 aborts with "terminate called after throwing an instance of
// 'gloo::EnforceNotMet'" and "what(): … op.preamble.length <= op.nbytes. 48 vs 32 …". It was plain output (no
// record while counting); now it is a record that holds the bytes, of no kind that counting counts (the
// runtime errors stay rank 1's one traceback, as expected.json says), for the hang analysis to read.
func TestGlooSizeCheck(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{"torch-2.14/h02b_mismatch_shapes.plain.log", "gloo::EnforceNotMet &{48 32 ./gloo/transport/tcp/pair.cc:456}"},
		{"torch-2.6/h02b_mismatch_shapes.plain.log", "gloo::EnforceNotMet &{48 32 ./gloo/transport/tcp/pair.cc:446}"},
	} {
		recs, _ := parseFile(t, filepath.Join("..", "testdata", "dist-hangs", c.log), Options{SkipOther: true, Rank: -1})
		got, runtime := "", 0
		for _, r := range recs {
			if r.Error != nil && r.Error.GlooSize != nil {
				if r.Kind != KindOther {
					t.Errorf("%s: gloo's abort is a %s record", c.log, r.Kind)
				}
				got = fmt.Sprintf("%s %v", r.Error.Class, r.Error.GlooSize)
			}
			if r.Kind == KindRuntimeError {
				runtime++
			}
		}
		if got != c.want || runtime != 1 {
			t.Errorf("%s: %q, %d runtime errors; want %q, 1", c.log, got, runtime, c.want)
		}
	}
}

package logparse

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A chained traceback (Unsupported → "The above exception was the direct cause…" → FailOnRecompileLimitHit, a
// real 2.11 log) followed by another rank's records, cut into two parts at every place: the parts join into the
// serial records (it used to be split in two when a part began at the chain's second "Traceback").
func TestParallelJoinsChainedTracebacks(t *testing.T) {
	old := MinParallelSize
	MinParallelSize = 0
	defer func() { MinParallelSize = old }()
	data, err := os.ReadFile("../testdata/fixtures/torch-2.11-cuda/g08b_recompile_limit_fail.triage.log")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if l != "" {
			fmt.Fprintf(&b, "[rank3]:%s", l)
		}
	}
	data2, err := os.ReadFile("../testdata/fixtures/torch-2.14/gb_recompile.triage.log")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.SplitAfter(string(data2), "\n") {
		if l != "" {
			fmt.Fprintf(&b, "[rank0]:%s", l)
		}
	}
	path := filepath.Join(t.TempDir(), "all.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	collect := func(workers int, partSize int64) []string { return parseInParts(t, path, workers, partSize, sig) }
	serial := collect(1, 1<<40)
	st, _ := os.Stat(path)
	for ps := int64(100); ps < st.Size(); ps += 37 { // every line start is near some multiple
		got := collect(2, ps)
		if !reflect.DeepEqual(got, serial) {
			t.Fatalf("partsize %d:\n got %v\nwant %v", ps, got[:min(8, len(got))], serial[:min(8, len(serial))])
		}
	}
}

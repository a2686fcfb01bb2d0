package logparse

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The records of several inputs reach Emit input by input, in input order and each input's in its own order,
// whatever the order their parses end in: a consumer keeping the first records it sees (evidence, samples, the
// first failure) then makes the same report on every run. Before, inputs parsed at once emitted into one another
// (a torchrun --log-dir tree of 3 rank files printed a different text report on each run).
func TestParseInputsEmitsInInputOrder(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "torch-2.14", "gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var inputs []Input
	for i := range 6 {
		p := filepath.Join(dir, "rank"+string(rune('0'+i))+".log")
		if err := os.WriteFile(p, []byte(strings.Repeat(string(data), 40*(6-i))), 0o644); err != nil { // the first the longest
			t.Fatal(err)
		}
		inputs = append(inputs, inputFor(p))
	}
	var got []string
	var lines []int
	errs := ParseInputs(inputs, 6, false, nil, Sink{Emit: func(r *Record) {
		got = append(got, r.Input)
		lines = append(lines, r.FirstLine)
	}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	at, n := 0, 0
	for k, in := range got {
		for at < len(inputs) && inputs[at].Name != in {
			at++
		}
		if at == len(inputs) {
			t.Fatalf("record %d of %s came after the records of a later input", k, in)
		}
		if k > 0 && got[k-1] == in && lines[k] < lines[k-1] {
			t.Fatalf("record %d of %s (line %d) came after line %d", k, in, lines[k], lines[k-1])
		}
		n++
	}
	if n == 0 || at != len(inputs)-1 {
		t.Errorf("%d records, the last from input %d of %d", n, at, len(inputs))
	}
}

// Many small inputs cost what they hold: each read one 256 KiB buffer (5,000 files of a line each allocated
// 1.25 GB and took twice as long).
func TestSmallInputsAllocateLittle(t *testing.T) {
	dir := t.TempDir()
	var inputs []Input
	for i := range 200 {
		p := filepath.Join(dir, "f"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26))+".log")
		if err := os.WriteFile(p, []byte("hello\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, inputFor(p))
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if errs := ParseInputs(inputs, 8, false, nil, Sink{Emit: func(*Record) {}}); len(errs) > 0 {
		t.Fatal(errs)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 200*64<<10 {
		t.Errorf("200 one-line inputs allocated %d KB", got>>10)
	}
}

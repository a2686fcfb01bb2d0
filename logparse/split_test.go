package logparse

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func sig(r *Record) string {
	s := fmt.Sprintf("%v r%d l%d-%d %s", r.Kind, r.Rank, r.FirstLine, r.LastLine, r.CompileID)
	switch {
	case r.Break != nil:
		s += fmt.Sprintf(" %s:%d %s %s %d", r.Break.File, r.Break.Line, r.Break.GBType, r.Break.Reason, len(r.Break.Frames))
	case r.Recompile != nil:
		s += fmt.Sprintf(" %s %d", r.Recompile.Function, len(r.Recompile.Failures))
	case r.Limit != nil:
		s += " " + r.Limit.LastReason
	case r.Error != nil:
		s += " " + r.Error.Class
	case r.Shape != nil:
		s += fmt.Sprintf(" %v %s %s %s", r.Shape.Event, r.Shape.Symbol, r.Shape.Value, r.Shape.Source)
	case r.DDP != nil:
		s += fmt.Sprintf(" %v %v %v %v", r.DDP.Stage, r.DDP.Submodules, r.DDP.Calls, r.DDP.Complete)
	}
	return s
}

// A file parsed in parts gives exactly the records of a serial parse, in the same order, records cut by part
// boundaries included.
func TestParallelEqualsSerial(t *testing.T) {
	old := MinParallelSize
	MinParallelSize = 0
	defer func() { MinParallelSize = old }()
	var b strings.Builder
	r := 0
	for _, f := range seedFiles(t) {
		if strings.Contains(f, ".trace") || strings.Contains(f, "tlparse") {
			continue
		}
		data, _ := os.ReadFile(f)
		for _, l := range strings.SplitAfter(string(data), "\n") {
			if l != "" {
				fmt.Fprintf(&b, "[rank%d]:%s", r, l)
			}
		}
		r = (r + 1) % 4
	}
	path := filepath.Join(t.TempDir(), "all.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	collect := func(workers int, partSize int64) []string { return parseInParts(t, path, workers, partSize, sig) }
	serial := collect(1, 1<<40)
	if len(serial) < 500 {
		t.Fatalf("only %d records", len(serial))
	}
	st, _ := os.Stat(path)
	// workers × parts: as many parts as workers, and many more parts than workers (taken in turn)
	for _, c := range []struct{ workers, parts int }{{2, 2}, {3, 3}, {7, 7}, {16, 16}, {61, 61}, {2, 61}, {3, 40}, {2, 137}, {8, 300}, {4, 1000}} {
		n := c.parts
		if got := collect(c.workers, st.Size()/int64(c.parts)+1); !reflect.DeepEqual(got, serial) {
			for i := range got {
				if i >= len(serial) || got[i] != serial[i] {
					t.Fatalf("%d parts (%d workers): first difference at %d:\n got  %s\n want %s", n, c.workers, i, got[i], serial[min(i, len(serial)-1)])
				}
			}
			t.Fatalf("%d parts (%d workers): %d records, serial %d", n, c.workers, len(got), len(serial))
		}
	}
}

// FuzzParallelEqualsSerial: whatever the input and wherever the part boundaries fall, a parallel parse emits
// the records of a serial one, in the same order. go test ./logparse -run '^$' -fuzz FuzzParallelEqualsSerial
func FuzzParallelEqualsSerial(f *testing.F) {
	for i, p := range seedFiles(f) {
		if strings.Contains(p, ".trace") || strings.Contains(p, "tlparse") || i%4 != 0 {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		b = b[:min(len(b), 16<<10)]
		var prefixed bytes.Buffer
		for j, l := range bytes.SplitAfter(b, []byte("\n")) {
			fmt.Fprintf(&prefixed, "[rank%d]:%s", j%3/2, l) // two ranks, interleaved in runs
		}
		f.Add(prefixed.Bytes(), uint8(i))
	}
	for i, s := range pasteSeeds {
		f.Add([]byte(strings.Repeat(s, 4)), uint8(i+2))
	}
	f.Fuzz(func(t *testing.T, data []byte, parts uint8) {
		path := filepath.Join(t.TempDir(), "in.log")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		oldMin, oldPart := MinParallelSize, PartSize
		defer func() { MinParallelSize, PartSize = oldMin, oldPart }()
		MinParallelSize = 0
		collect := func(workers int, partSize int64) []string {
			PartSize = partSize
			var out []string
			opt := Options{Rank: -1, SkipOther: true, MaxLine: 512}
			if err := ParseFileParallel(fh, int64(len(data)), workers, opt, func(r *Record) { out = append(out, sig(r)) }); err != nil {
				t.Fatal(err)
			}
			return out
		}
		serial := collect(1, 1<<40)
		got := collect(2, int64(len(data))/(int64(parts%32)+2)+1)
		if !reflect.DeepEqual(got, serial) {
			t.Fatalf("parallel:\n%s\nserial:\n%s", strings.Join(got, "\n"), strings.Join(serial, "\n"))
		}
	})
}

// parseInParts parses the file at path with ParseFileParallel (workers, parts of partSize bytes, however small
// the file) and returns each record as sigOf words it, in emission order (a serial parse's order).
func parseInParts(t testing.TB, path string, workers int, partSize int64, sigOf func(*Record) string) []string {
	t.Helper()
	var out []string
	parseFileInParts(t, path, workers, partSize, Options{Rank: -1, SkipOther: true}, func(r *Record) { out = append(out, sigOf(r)) })
	return out
}

// parseFileInParts parses the file at path with ParseFileParallel and opt, in parts of partSize bytes however
// small the file, handing every record to emit.
func parseFileInParts(t testing.TB, path string, workers int, partSize int64, opt Options, emit func(*Record)) {
	t.Helper()
	oldMin, old := MinParallelSize, PartSize
	MinParallelSize, PartSize = 0, partSize
	defer func() { MinParallelSize, PartSize = oldMin, old }()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if err := ParseFileParallel(f, st.Size(), workers, opt, emit); err != nil {
		t.Fatal(err)
	}
}

// A part of plain output (no record head at all) holds every line as a lead; the join replays only what can
// matter: with a traceback open before the boundary the plain lines continue it, with nothing open they change
// nothing. Either way the records are a serial parse's, wherever the parts are cut.
func TestParallelPlainOutputEqualsSerial(t *testing.T) {
	tb := readFixture(t, r25Reraise)
	var b strings.Builder
	plain := func(n int, prefix string) {
		for i := range n {
			fmt.Fprintf(&b, "%sstep %d: loss 0.%06d\n", prefix, i, i)
		}
	}
	plain(3000, "")
	b.WriteString(tb) // ends inside its last traceback: plain lines follow it
	plain(3000, "")
	b.WriteString("ERROR:root:step failed\n")
	plain(2000, "[rank1]:")
	b.WriteString(tb)
	plain(3000, "[rank1]:")
	path := filepath.Join(t.TempDir(), "plain.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	serial := parseInParts(t, path, 1, 1<<40, sig)
	if len(serial) < 10 {
		t.Fatalf("only %d records", len(serial))
	}
	reparsed := 0
	onReparse = func() { reparsed++ }
	defer func() { onReparse = nil }()
	for ps := int64(4 << 10); ps < int64(b.Len()); ps += 3 << 10 {
		if got := parseInParts(t, path, 3, ps, sig); !reflect.DeepEqual(got, serial) {
			t.Fatalf("part size %d:\n got %q\nwant %q", ps, got, serial)
		}
	}
	// a part of plain output after an open traceback was parsed again from the file (its lines only counted)
	if reparsed == 0 {
		t.Error("no part was parsed again: the plain lines after the open traceback were all held")
	}
}

// A recompile's failures keep their own user-stack lines as Extra (joined by "\n", a blank line dropped),
// however many failures there are: one string holds them all, each failure a part of it.
func TestRecompileExtrasEachTheirOwn(t *testing.T) {
	lines := []string{"Recompiling function f in /x.py:6", "    triggered by the following guard failure(s):",
		"    - 0/2: a == 1", "    - 0/1: b == 2", "    - User stack trace:", "    -   File \"/x.py\", line 7, in f",
		"    -     x = x * b", "    - 0/0: c == 3", "    - User stack trace:", "", "    -   File \"/x.py\", line 8, in f"}
	for _, n := range []int{3, 2} { // three failures, and two (the payload made with room for them)
		in := lines
		if n == 2 {
			in = lines[:7]
		}
		rc := parseRecompile(in)
		if len(rc.Failures) != n {
			t.Fatalf("%d failures, want %d: %+v", len(rc.Failures), n, rc.Failures)
		}
		want := []string{"", "User stack trace:\nFile \"/x.py\", line 7, in f\nx = x * b", "User stack trace:\nFile \"/x.py\", line 8, in f"}
		for i, f := range rc.Failures {
			if f.Extra != want[i] {
				t.Errorf("%d failures: failure %d (%s) Extra %q, want %q", n, i, f.CompileID, f.Extra, want[i])
			}
		}
		if rc.Function != "f" || rc.File != "/x.py" || rc.Line != 6 {
			t.Errorf("head %q %q %d", rc.Function, rc.File, rc.Line)
		}
	}
	if rc := parseRecompile(nil); rc == nil || rc.Failures != nil {
		t.Errorf("no lines: %+v", rc)
	}
}

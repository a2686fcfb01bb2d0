package logparse

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"
)

const r05 = "../testdata/fixtures/torch-2.14/r05_dist_c10d.triage.log"

func kinds(rs []*Record) map[Kind]int {
	m := map[Kind]int{}
	for _, r := range rs {
		m[r.Kind]++
	}
	return m
}

func readFixture(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCRLFAndANSIAreTransparent(t *testing.T) {
	plain := readFixture(t, r05)
	want := kinds(parseAll(t, plain))
	crlf := strings.ReplaceAll(plain, "\n", "\r\n")
	if got := kinds(parseAll(t, crlf)); !equalKinds(got, want) {
		t.Fatalf("CRLF: %v want %v", got, want)
	}
	ansi := strings.ReplaceAll(plain, "Graph break in", "\x1b[31mGraph break in\x1b[0m")
	ansi = strings.ReplaceAll(ansi, "[rank0]:", "\x1b[1m[rank0]:\x1b[0m")
	if got := kinds(parseAll(t, ansi)); !equalKinds(got, want) {
		t.Fatalf("ANSI: %v want %v", got, want)
	}
}

func equalKinds(a, b map[Kind]int) bool {
	for _, k := range []Kind{KindGraphBreak, KindRecompile, KindLimitHit, KindCudagraphSkip, KindCompileError} {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

func TestChunkBoundariesDoNotMatter(t *testing.T) {
	data := readFixture(t, "../testdata/fixtures/torch-2.14/gb_recompile.triage.log")
	want := kinds(parseAll(t, data))
	for _, size := range []int{1, 7, 4096} {
		var got []*Record
		p := NewParser(Options{Rank: -1}, func(r *Record) { got = append(got, r) })
		for i := 0; i < len(data); i += size {
			p.Write([]byte(data[i:min(i+size, len(data))]))
		}
		p.Flush()
		if !equalKinds(kinds(got), want) {
			t.Fatalf("chunk %d: %v want %v", size, kinds(got), want)
		}
	}
}

func TestNULAndInvalidUTF8(t *testing.T) {
	log := "V1121 07:45:29.809000 1 torch/_dynamo/guards.py:2791] [0/1] [__recompiles] Recompiling function st\x00ep\xff\xfe in /w/r.py:6\n" +
		"\x00\x00\xff binary junk \xc3\x28\n"
	rs := parseAll(t, log)
	rc := ofKind(rs, KindRecompile)
	if len(rc) != 1 || !strings.Contains(rc[0].Recompile.Function, "\uFFFD") {
		t.Fatalf("recompile from a line with NUL/invalid UTF-8: %+v", rc)
	}
	for _, r := range rs {
		for _, l := range r.Lines {
			if !utf8Valid(l) {
				t.Fatalf("invalid UTF-8 kept: %q", l)
			}
		}
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "") == s }

func TestTruncatedRecordAtEOFAndEmptyInput(t *testing.T) {
	if rs := parseAll(t, ""); len(rs) != 0 {
		t.Fatalf("empty input gave %d records", len(rs))
	}
	data := readFixture(t, "../testdata/fixtures/torch-2.14/gb_recompile.triage.log")
	cut := data[:strings.Index(data, "    triggered by the following guard failure(s):")+20] // ends mid-line, mid-record
	rc := ofKind(parseAll(t, cut), KindRecompile)
	if len(rc) != 1 || rc[0].Recompile.Function != "torch_dynamo_resume_in_f_at_18" {
		t.Fatalf("a record cut at EOF is still emitted: %+v", rc)
	}
}

func TestInterleavedRanksInsideRecords(t *testing.T) {
	lines := strings.Split(strings.TrimRight(readFixture(t, r05), "\n"), "\n")
	var r0, r1, other []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "[rank0]:"):
			r0 = append(r0, l)
		case strings.HasPrefix(l, "[rank1]:"):
			r1 = append(r1, l)
		default:
			other = append(other, l)
		}
	}
	// Alternate rank 0 and rank 1 lines one by one: records of both ranks are cut into each other.
	var mixed []string
	for i := 0; i < len(r0) || i < len(r1); i++ {
		if i < len(r0) {
			mixed = append(mixed, r0[i])
		}
		if i < len(r1) {
			mixed = append(mixed, r1[i])
		}
	}
	want := kinds(parseAll(t, strings.Join(lines, "\n")))
	got := kinds(parseAll(t, strings.Join(append(other, mixed...), "\n")))
	if !equalKinds(got, want) {
		t.Fatalf("interleaved: %v want %v", got, want)
	}
}

func TestProgressBarCarriageReturn(t *testing.T) {
	log := "  45%|████▌     | 9/20 [00:03<00:04]\rV1121 07:45:29.809000 5 torch/_dynamo/guards.py:2791] [0/1] [__recompiles] Recompiling function f in /w/r.py:6\n"
	if rc := ofKind(parseAll(t, log), KindRecompile); len(rc) != 1 {
		t.Fatalf("record after \\r: %d", len(rc))
	}
}

func TestHugeLineMemoryIsBounded(t *testing.T) {
	// A 10 MB line between two records: it is cut, both records survive, and memory does not grow with it.
	rec := "V1121 07:45:29.809000 5 torch/_dynamo/guards.py:2791] [0/1] [__recompiles] Recompiling function f in /w/r.py:6\n"
	huge := bytes.Repeat([]byte("x"), 10<<20)
	var got []*Record
	p := NewParser(Options{Rank: -1, KeepText: true}, func(r *Record) { got = append(got, r) })
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p.Write([]byte(rec))
	for i := 0; i < len(huge); i += 1 << 16 { // streamed in 64 KiB chunks like a pipe
		p.Write(huge[i : i+1<<16])
	}
	p.Write([]byte("\n" + rec))
	p.Flush()
	runtime.ReadMemStats(&after)
	if n := len(ofKind(got, KindRecompile)); n != 2 {
		t.Fatalf("recompiles around a 10 MB line: %d", n)
	}
	cut := false
	for _, r := range got {
		if r.Truncated {
			cut = true
			if l := len(r.Lines[0]); l > 64<<10 {
				t.Fatalf("kept %d bytes of a huge line", l)
			}
		}
	}
	if !cut {
		t.Fatal("the huge line's record is not marked truncated")
	}
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > 4<<20 {
		t.Fatalf("heap grew by %d bytes for a 10 MB line", grew)
	}
}

func TestExcepthookTracebackPerRank(t *testing.T) {
	log := "[rank1]: Traceback (most recent call last):\n" +
		"[rank1]:   File \"/w/r.py\", line 8, in <module>\n" +
		"[rank0]: Traceback (most recent call last):\n" +
		"[rank1]:     cf(x)\n" +
		"[rank0]:   File \"/w/r.py\", line 8, in <module>\n" +
		"[rank1]: torch._dynamo.exc.Unsupported: Call to `torch._dynamo.graph_break()`\n" +
		"\n" +
		"[rank0]: RuntimeError: peer rank 1 died\n"
	rs := parseAll(t, log)
	ce := ofKind(rs, KindCompileError)
	ex := ofKind(rs, KindRuntimeError)
	if len(ce) != 1 || ce[0].Rank != 1 || ce[0].Error.Class != "torch._dynamo.exc.Unsupported" {
		t.Fatalf("compile error of rank 1: %+v", ce)
	}
	if len(ex) != 1 || ex[0].Rank != 0 || ex[0].Error.Class != "RuntimeError" {
		t.Fatalf("runtime error of rank 0: %+v", ex)
	}
}

func TestFaulthandlerStackDump(t *testing.T) {
	log := "Thread 0x00007f1c2b7fe6c0 (most recent call first):\n  File \"/usr/lib/python3.11/threading.py\", line 320 in wait\n\n" +
		"Current thread 0x00007f1c3a1b2740 (most recent call first):\n  File \"/w/r.py\", line 5 in f\n"
	st := ofKind(parseAll(t, log), KindStack)
	if len(st) != 1 || len(st[0].Lines) < 5 {
		t.Fatalf("one stack record with every thread: %+v", st)
	}
}

// A character cut by a line break: the record's text is valid UTF-8 as a whole, its lines are not; each line
// is made valid on its own.
func TestCharacterCutByALineBreak(t *testing.T) {
	p := "V1121 07:45:29.809000 1 torch/_dynamo/guards.py:2791] [0/1] [__recompiles] "
	log := p + "Recompiling function step in /w/r.py:6\n" + p + "    triggered by the following guard failure(s):\n" +
		p + "    - 0/0: mode == 'caf\xc3\n" + p + "\xa9'\n"
	rs := parseAll(t, log)
	if rc := ofKind(rs, KindRecompile); len(rc) != 1 || len(rc[0].Lines) != 4 {
		t.Fatalf("want one recompile of 4 lines: %+v", rs)
	}
	for _, r := range rs {
		for _, l := range r.Lines {
			if !utf8Valid(l) {
				t.Fatalf("invalid UTF-8 kept: %q", l)
			}
		}
	}
}

package session

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runner"
)

// linesOf is every line of a log, read back.
func linesOf(b Log) []LogLine { return b.Lines(0, b.Len()) }

// A log read back from its files shows exactly the lines of one kept in memory — whatever the chunks the bytes
// came in, with two interleaved streams, CRLF, ANSI, tabs, a line longer than a read window and an unfinished
// last line — and finds every input line where the memory one does.
func TestFileLogReadsBackTheSameLines(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures, "torch-2.14/r05_dist_c10d.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	extra := "crlf line\r\n\x1b[31mred\x1b[0m\tand a tab\n" + strings.Repeat("long ", 40000) + "\nno newline at the end"
	streams := [2][]byte{append(bytes.Clone(data), extra...), []byte("stdout one\n\nstdout three\n")}
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "stderr.log"), filepath.Join(dir, "stdout.log")}
	for i, p := range paths {
		if err := os.WriteFile(p, streams[i], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mem, file := NewLogWriter("err", "out"), NewFileLogWriter([]string{"err", "out"}, paths)
	rng := rand.New(rand.NewPCG(1, 2))
	var at [2]int
	for at[0] < len(streams[0]) || at[1] < len(streams[1]) {
		i := rng.IntN(2)
		n := min(1+rng.IntN(700), len(streams[i])-at[i])
		if n <= 0 {
			continue
		}
		chunk := streams[i][at[i] : at[i]+n]
		mem.Write(i, chunk)
		file.Write(i, chunk)
		at[i] += n
		if rng.IntN(50) == 0 {
			mem.Header("── a header ──")
			file.Header("── a header ──")
		}
	}
	mem.Flush()
	file.Flush()
	if file.buf.mem[0] != nil || file.buf.mem[1] != nil {
		t.Fatal("a log with files keeps their bytes")
	}
	m, f := mem.View(), file.View()
	ml, fl := linesOf(m), linesOf(f)
	if len(ml) != len(fl) || len(ml) < 60 {
		t.Fatalf("%d lines from memory, %d from the files", len(ml), len(fl))
	}
	for i := range ml {
		if ml[i] != fl[i] {
			t.Fatalf("line %d: memory %+v, file %+v", i, ml[i], fl[i])
		}
	}
	if got := fl[len(fl)-1].Text; got != "no newline at the end" && !strings.Contains(fl[len(fl)-3].Text, "no newline") {
		t.Errorf("the unfinished last line is lost: %q", got)
	}
	var long, crlf bool
	for _, l := range fl {
		long = long || len(l.Text) == maxLineText
		crlf = crlf || l.Text == "crlf line"
	}
	if !long || !crlf {
		t.Errorf("long line cut to %d bytes: %v; CRLF line without its \\r: %v", maxLineText, long, crlf)
	}
	if !slicesEqual(m.Ranks(), f.Ranks()) || len(f.Ranks()) != 2 {
		t.Errorf("ranks: memory %v, files %v", m.Ranks(), f.Ranks())
	}
	for in, name := range []string{"err", "out"} {
		for line := 1; line <= int(f.lines[in]); line += 7 {
			p := f.Find(name, line)
			if p != m.Find(name, line) || p < 0 || int(f.Line(p).Input) != in {
				t.Fatalf("%s:%d: file log finds %d, memory %d", name, line, p, m.Find(name, line))
			}
		}
	}
	// backward reads (the failure view reads from the end) give the same lines
	for i := len(fl) - 1; i >= 0; i -= 97 {
		if got := f.Line(i); got != ml[i] {
			t.Fatalf("line %d read alone: %+v, want %+v", i, got, ml[i])
		}
	}
}

func slicesEqual(a, b []int) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// A file cut after it was indexed reads back as a line saying so, never a crash or someone else's bytes.
func TestFileLogCutUnderneathSaysSo(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.log")
	var data bytes.Buffer
	for i := range 1000 {
		fmt.Fprintf(&data, "line %d\n", i)
	}
	if err := os.WriteFile(p, data.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	w := NewFileLogWriter([]string{"out"}, []string{p})
	w.Write(0, data.Bytes())
	b := w.View()
	if err := os.Truncate(p, 100); err != nil {
		t.Fatal(err)
	}
	if got := b.Line(3).Text; got != "line 3" {
		t.Errorf("line 3 is still there: %q", got)
	}
	if got := b.Line(900).Text; !strings.Contains(got, "cannot be read back") || !strings.Contains(got, p) {
		t.Errorf("a line the file no longer has reads %q", got)
	}
}

// heapAfterGC is the live heap.
func heapAfterGC() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// Opening a log does not hold its text: the heap after Open grows by a small part of the file's size (it used
// to hold every line as a string: more than the file).
func TestOpenDoesNotHoldTheText(t *testing.T) {
	seed, err := os.ReadFile(filepath.Join(fixtures, "torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "big.log")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	for size < 32<<20 {
		n, _ := f.Write(seed)
		size += n
	}
	f.Close()
	before := heapAfterGC()
	b, err := Open([]string{p}, nil)
	if err != nil {
		t.Fatal(err)
	}
	grew := int64(heapAfterGC()) - int64(before)
	if grew > int64(size/8) {
		t.Errorf("Open of a %d MB log holds %d MB", size>>20, grew>>20)
	}
	if b.Log.Len() < size/200 || !strings.Contains(b.Log.Line(b.Log.Len()-1).Text+b.Log.Line(0).Text, "torch") {
		t.Errorf("%d lines; first %q", b.Log.Len(), b.Log.Line(0).Text)
	}
	runtime.KeepAlive(b)
}

// A live run's log reads its stream files (the runner's stdout.log and stderr.log): hours of output cost the
// follower a few bytes a line, not the lines (it used to keep every line: ~2 MB/s for a chatty repro).
func TestLiveRunLogDoesNotHoldTheText(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "stdout.log")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	t0 := time.Now()
	lr := NewFollower(1, t0)
	line := []byte("step 12345: loss 0.12345678 lr 0.001 tokens/s 123456.7 and some padding to 100 bytes ......\n")
	chunk := bytes.Repeat(line, 1000)
	before := heapAfterGC()
	for i := range 200 { // 200,000 lines, 20 MB
		if _, err := out.Write(chunk); err != nil {
			t.Fatal(err)
		}
		lr.Apply(Event{RunID: 1, Kind: runner.EventOutput, Stream: "stdout", Data: bytes.Clone(chunk), File: path},
			t0.Add(time.Duration(i)*time.Millisecond))
		if i%50 == 0 {
			lr.Batch(nil, t0.Add(time.Duration(i)*time.Millisecond))
		}
	}
	b := lr.Batch(nil, t0.Add(time.Second))
	grew := int64(heapAfterGC()) - int64(before)
	if grew > 4<<20 {
		t.Errorf("200,000 lines (20 MB) of live output hold %d KB", grew>>10)
	}
	if b.Log.Len() != 200000 || b.Log.Line(123456).Text != strings.TrimSuffix(string(line), "\n") {
		t.Errorf("%d lines; line 123456 %q", b.Log.Len(), b.Log.Line(123456).Text)
	}
	if b.Output.Lines != 200000 || b.Output.LastLine == "" {
		t.Errorf("output stats %+v", b.Output)
	}
	runtime.KeepAlive(lr)
}

// A line longer than what a LogLine shows marks where the next line starts, so reading it (or past it) never
// scans the rest of it: a 1 GB line without a newline is read back at the cost of 64 KiB.
func TestLongLineMarksTheNext(t *testing.T) {
	long := strings.Repeat("x", 3*maxLineText)
	w := NewLogWriter("in")
	w.Write(0, []byte("short\n"+long+"\nafter\n"))
	b := w.View()
	found := false
	for _, m := range b.long[0] {
		found = found || m.line == 2 && m.off == int64(len("short\n")+len(long)+1)
	}
	if !found {
		t.Fatalf("no mark on the line after the long one: %+v", b.long[0])
	}
	// the mark is what ends the long line: a '\n' written into it later (past what a LogLine shows) is never seen
	b.mem[0] = slices.Clone(b.mem[0])
	b.mem[0][len("short\n")+maxLineText+10] = '\n'
	got := b.Lines(0, 3)
	if got[0].Text != "short" || len(got[1].Text) != maxLineText || got[2].Text != "after" {
		t.Fatalf("lines %q, %d bytes, %q", got[0].Text, len(got[1].Text), got[2].Text)
	}
}

package logparse

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FlushIdle completes only the records of channels that had no line since the mark: another rank, or user output
// on the same channel that does not continue the record, does not keep a finished record open.
func TestFlushIdleCompletesOnlyIdleRecords(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "fixtures", "torch-2.14", "gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	gb := strings.SplitAfter(string(data), "\n")[:23] // one whole graph-break record
	var got []string
	p := NewParser(Options{Input: "x", Rank: -1, KeepText: true}, func(r *Record) {
		got = append(got, fmt.Sprintf("%v r%d l%d-%d", r.Kind, r.Rank, r.FirstLine, r.LastLine))
	})
	write := func(prefix string, lines ...string) {
		for _, l := range lines {
			p.Write([]byte(prefix + l))
		}
	}
	write("[rank0]:", gb...) // lines 1-23
	mark := p.Lines()
	if mark != 23 {
		t.Fatalf("Lines() = %d after 23 lines", mark)
	}
	p.FlushIdle(0)
	if len(got) != 0 {
		t.Fatalf("FlushIdle(0) completed %v", got)
	}
	write("[rank1]:", gb[:5]...)           // lines 24-28: rank 1 goes on
	write("[rank0]:", "step 1 loss 0.5\n") // line 29: user output on rank 0's channel
	if o := p.OldestOpen(); o != 23 {      // user output is not waited for
		t.Fatalf("OldestOpen() = %d, want rank 0's record (23)", o)
	}
	p.FlushIdle(mark)
	if o := p.OldestOpen(); o != 28 {
		t.Fatalf("OldestOpen() = %d, want rank 1's record (28)", o)
	}
	if want := []string{"graph_break r0 l1-23"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("FlushIdle(%d) completed %v, want %v", mark, got, want)
	}
	got = nil
	p.FlushIdle(mark) // nothing new is idle
	mark2 := p.Lines()
	write("[rank1]:", gb[5:]...) // rank 1's record goes on after the mark: it stays open
	p.FlushIdle(mark2)
	if want := []string{"other r0 l29-29"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("FlushIdle(%d) completed %v, want %v", mark2, got, want)
	}
	got = nil
	write("[rank0]:", "step 2 loss") // an unfinished line waits for its end
	p.FlushIdle(p.Lines())
	if want := []string{"graph_break r1 l24-47"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("FlushIdle(Lines()) completed %v, want %v", got, want)
	}
	got = nil
	p.Write([]byte(" 0.4\n"))
	p.FlushIdle(p.Lines())
	if want := []string{"other r0 l48-48"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("FlushIdle(Lines()) completed %v, want %v", got, want)
	}
}

// When nothing came since the mark, FlushIdle is FlushRecords: the same records in the same order, whatever
// follows; but for a logged traceback that nothing ended yet, which FlushIdle keeps open (what follows decides
// whether it was fatal, caught.go) where FlushRecords closes it: there FlushIdle gives what one parse of the whole
// input gives (testdata/recorded/caught-compile's "ERROR:app:compile failed" traceback, one record, which
// FlushRecords cut in three).
func TestFlushIdleOfEverythingIsFlushRecords(t *testing.T) {
	for _, f := range seedFiles(t) {
		if strings.Contains(f, ".trace") || strings.Contains(f, "tlparse") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, skip := range []bool{false, true} {
			opt := Options{Input: "x", Rank: -1, SkipOther: skip}
			var all, idle []string
			pa := NewParser(opt, func(r *Record) { all = append(all, sig(r)) })
			pi := NewParser(opt, func(r *Record) { idle = append(idle, sig(r)) })
			for i, n := 0, 0; i < len(data); i += n { // chunks of 1 to 2000 bytes, cut anywhere
				n = 1 + (i*7919)%2000
				chunk := data[i:min(i+n, len(data))]
				pa.Write(chunk)
				pi.Write(chunk)
				if n%3 == 0 {
					pa.FlushRecords()
					pi.FlushIdle(pi.Lines())
				}
			}
			pa.Flush()
			pi.Flush()
			if strings.Join(all, "\n") != strings.Join(idle, "\n") {
				var whole []string
				pw := NewParser(opt, func(r *Record) { whole = append(whole, sig(r)) })
				pw.Write(data)
				pw.Flush()
				if strings.Join(whole, "\n") != strings.Join(idle, "\n") || !strings.Contains(string(data), "Traceback") {
					t.Fatalf("%s (SkipOther %v): FlushIdle(Lines()) gave %d records, FlushRecords %d, one parse %d", f, skip,
						len(idle), len(all), len(whole))
				}
			}
		}
	}
}

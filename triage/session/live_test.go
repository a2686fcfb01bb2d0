package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/report"
)

func TestLiveFeedMatchesReport(t *testing.T) {
	f := filepath.Join(fixtures, "torch-2.14/gb_recompile.triage.log")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	l := NewLive(3, "run3")
	taken, plain := 0, 0
	take := func() {
		for _, r := range l.TakeNew() {
			taken++
			if r.Plain() {
				plain++
			}
		}
	}
	for i := 0; i < len(data); i += 333 {
		l.Feed("stderr", data[i:min(i+333, len(data))])
		take()
	}
	l.Close()
	take()
	if taken-plain != l.Records() || taken == 0 || plain == 0 {
		t.Fatalf("batches gave %d records (%d plain output), %d counted", taken, plain, l.Records())
	}
	want, err := report.Load([]string{f}, report.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Report().Counts; got != want.Report.Counts {
		t.Fatalf("live counts %+v, file counts %+v", got, want.Report.Counts)
	}
	kept := 0
	opened, err := report.Load([]string{f}, report.LoadOptions{OnRecord: func(*logparse.Record) { kept++ }})
	// the same run opened counts the same records as it did live (the status line's "N records")
	if err != nil || opened.Report.Counts != want.Report.Counts || kept != l.Records() {
		t.Fatalf("Load with OnRecord: %v %+v, %d records (live counted %d)", err, opened.Report.Counts, kept, l.Records())
	}
}

// A record is complete once its own channel printed nothing for the idle gap, whatever other ranks or the other
// stream print meanwhile; a record whose channel goes on stays open.
func TestLiveCompletesTheRecordsOfIdleChannels(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(fixtures, "torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	gb := strings.SplitAfter(string(data), "\n")[:23] // one graph-break record
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	l := NewLive(1, "run1")
	feed := func(ms int, stream, prefix string, lines ...string) {
		for _, s := range lines {
			l.FeedAt(stream, []byte(prefix+s), at(ms))
		}
	}
	breaks := func() (n []int) {
		for _, r := range l.TakeNew() {
			if r.Kind == logparse.KindGraphBreak {
				n = append(n, r.Rank)
			}
		}
		return n
	}
	feed(0, "stderr", "[rank0]:", gb...)
	feed(10, "stderr", "[rank1]:", gb[:10]...)
	if n, next := l.FlushIdle(at(-1)); n != 0 || !next.Equal(at(0)) {
		t.Fatalf("FlushIdle before any output: %d records, next %v", n, next)
	}
	feed(350, "stdout", "", "step 1\n") // the other stream goes on
	feed(300, "stderr", "[rank1]:", gb[10:]...)
	// another rank
	feed(400, "stderr", "", "[rank2]:I1121 07:51:40.827000 8745 torch/distributed/x.py:1] still going\n")
	// rank 0's break waits longest
	if w := l.Waiting(); !w.Equal(at(0)) {
		t.Fatalf("Waiting() = %v before any flush", w)
	}
	if n, next := l.FlushIdle(at(5)); n != 1 || !next.Equal(at(10)) || fmt.Sprint(breaks()) != "[0]" {
		t.Fatalf("FlushIdle(5 ms): %d records, next %v; want rank 0's break and next 10 ms", n, next)
	}
	if n, _ := l.FlushIdle(at(299)); n != 0 { // rank 1's record went on at 300 ms
		t.Fatalf("FlushIdle(299 ms) completed %d records", n)
	}
	if w := l.Waiting(); !w.Equal(at(300)) { // rank 1's break; plain output is not waited for
		t.Fatalf("Waiting() = %v with rank 1's break open", w)
	}
	if n, next := l.FlushIdle(at(300)); n != 1 || !next.Equal(at(350)) || fmt.Sprint(breaks()) != "[1]" {
		t.Fatalf("FlushIdle(300 ms): %d records, next %v; want rank 1's break and next 350 ms", n, next)
	}
	if n, next := l.FlushIdle(at(1000)); n != 2 || !next.IsZero() || !l.Waiting().IsZero() { // the user's line and rank 2's INFO record
		t.Fatalf("FlushIdle(1 s): %d records, next %v", n, next)
	}
}

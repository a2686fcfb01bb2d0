package session

import (
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/runner"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// While nothing is found, a batch still shows that the run is alive: lines and bytes so far, its last non-blank
// line (cleaned; a progress bar's latest state, an unfinished line too) and when output last came.
func TestFollowerBatchShowsTheOutputSoFar(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	lr := NewFollower(1, t0)
	if b := lr.Batch(nil, t0); b.Output != (OutputStats{}) {
		t.Fatalf("before any output: %+v", b.Output)
	}
	steps := []struct {
		stream, data string
		want         OutputStats
	}{
		{"stdout", "hello\n", OutputStats{Lines: 1, LastLine: "hello"}},
		{"stderr", "\x1b[31mred\x1b[0m\tx\n\n", OutputStats{Lines: 3, LastLine: "red     x"}},
		{"stdout", "epoch 1:  10%\repoch 1:  20%\r\x1b[0m", OutputStats{Lines: 3, LastLine: "epoch 1:  20%"}},
		{"stderr", "  \n", OutputStats{Lines: 4, LastLine: "epoch 1:  20%"}}, // a blank line is no news
		{"stdout", "epoch 1:  30%\n", OutputStats{Lines: 5, LastLine: "epoch 1:  30%"}},
		{"stderr", "warn", OutputStats{Lines: 5, LastLine: "warn"}},
		{"stdout", "done\n", OutputStats{Lines: 6, LastLine: "done"}},
	}
	bytes := 0
	for i, s := range steps {
		at := t0.Add(time.Duration(i+1) * time.Second)
		lr.Apply(Event{RunID: 1, Kind: runner.EventOutput, Stream: s.stream, Data: []byte(s.data)}, at)
		bytes += len(s.data)
		s.want.LastAt, s.want.Bytes = at, bytes
		if b := lr.Batch(nil, at); b.Output != s.want {
			t.Fatalf("after %q: %+v, want %+v", s.data, b.Output, s.want)
		}
	}
	end := t0.Add(time.Minute)
	code := 0
	lr.Apply(Event{RunID: 1, Kind: runner.EventExited, Meta: &runs.Meta{ID: 1, ExitCode: &code, State: runs.StateExited}}, end)
	// the unfinished line ends; it was shown when it came
	want := OutputStats{Lines: 7, Bytes: bytes, LastLine: "done", LastAt: t0.Add(7 * time.Second)}
	if b := lr.Batch(nil, end); b.Output != want {
		t.Fatalf("at the end: %+v, want %+v", b.Output, want)
	}
}

// A record is complete once its rank printed nothing for idleFlush, though another rank and the user's prints go
// on; a batch that is due waits up to batchHold for a record that completes by then.
func TestFollowerCompletesARecordWhileOthersPrint(t *testing.T) {
	gb := fixtureLines(t, "gb_recompile.triage.log")[:23] // one graph-break record
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	lr := NewFollower(1, t0)
	out := func(at time.Time, stream, text string) {
		lr.Apply(Event{RunID: 1, Kind: runner.EventOutput, Stream: stream, Data: []byte(text)}, at)
	}
	for i, l := range gb {
		out(ms(i), "stderr", "[rank0]:"+l)
	}
	breaks := func(b Batch) int { return b.Analysis.Report.PerRank["0"].GraphBreakRecords }
	if b := lr.Batch(nil, ms(22)); breaks(b) != 0 {
		t.Fatalf("the record is complete before its rank was idle")
	}
	for n := 30; n <= 300; n += 10 { // rank 1 and the user go on every 10 ms
		out(ms(n), "stdout", "step\n")
		out(ms(n), "stderr", "[rank1]:I1121 07:51:40.827000 8745 torch/distributed/x.py:1] rank 1 goes on\n")
		if n == 140 {
			if wait := lr.FlushIdle(ms(n)); wait != time.Millisecond { // the line of 21 ms is idle at 141 ms
				t.Fatalf("FlushIdle at %d ms: next in %v, want 1ms", n, wait)
			}
			if hold := lr.hold(ms(n)); hold != 2*time.Millisecond { // rank 0's last line came at 22 ms
				t.Fatalf("hold at %d ms: %v, want 2ms", n, hold)
			}
		}
		if n == 150 {
			if wait := lr.FlushIdle(ms(n)); wait <= 0 || wait > idleFlush {
				t.Fatalf("FlushIdle at %d ms: next in %v", n, wait)
			}
			if b := lr.Batch(nil, ms(n)); breaks(b) != 1 {
				t.Fatalf("rank 0's record is not complete %d ms after its last line", n-22)
			}
			if hold := lr.hold(ms(n)); hold != 0 { // nothing but plain output is open
				t.Fatalf("hold at %d ms: %v", n, hold)
			}
		}
	}
}

func TestLastText(t *testing.T) {
	long := strings.Repeat("é", 1000) // 2000 bytes
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"  \t ", ""},
		{"  step 3\t ", "step 3"},
		{"a\rb\r  \r", "b"},
		{"a\r\x1b[0m", "a"},
		{"\x1b[1mbold\x1b[0m\tx", "bold    x"},
		{long, strings.Repeat("é", 512)},
		{long[:1023], strings.Repeat("é", 511) + "\uFFFD"},
	} {
		if got := lastText([]byte(c.in)); got != c.want {
			t.Errorf("lastText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A stall is a span on the timeline: from the last output to the program's next output or the run's end; the
// watchdog's second report of the same stall (its compile ended) is not a second stall.
func TestFollowerStallSpan(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }
	lr := NewFollower(1, t0)
	lr.Apply(Event{RunID: 1, Kind: runner.EventStalled, Since: s(10), Time: s(40)}, s(40))
	lr.Apply(Event{RunID: 1, Kind: runner.EventStalled, Since: s(10), Time: s(45)}, s(45))
	first := lr.Batch(nil, s(46)).Timeline
	if len(first) != 1 || !first[0].Stall || first[0].At != 10*time.Second || first[0].End != 0 {
		t.Fatalf("while stalled: %+v, want one open stall from 10s", first)
	}
	lr.Apply(Event{RunID: 1, Kind: runner.EventResumed, Time: s(50)}, s(50))
	lr.Apply(Event{RunID: 1, Kind: runner.EventStalled, Since: s(50), Time: s(80)}, s(80))
	code := 1
	lr.Apply(Event{RunID: 1, Kind: runner.EventExited, Time: s(90), Meta: &runs.Meta{ID: 1, ExitCode: &code, State: runs.StateKilled}}, s(90))
	got := lr.Batch(nil, s(90)).Timeline
	if len(got) != 2 || got[0].End != 50*time.Second || got[1].At != 50*time.Second || got[1].End != 90*time.Second {
		t.Errorf("stalls %+v, want 10s–50s and 50s–90s", got)
	}
	if first[0].End != 0 {
		t.Error("a batch already sent changed")
	}
}

package tui

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/session"
)

// A live torchrun job whose lines carry only the tee prefix ([default0]:) and no record yet reads as docs/report.md
// and the report say, "torchrun job, no rank prefix", not "2 processes (records not rank-tagged)" (recorded:
// stopped-dist-hang's first lines; the probe saw 2 processes start).
func TestStripOfTorchrunJobWithoutRankPrefix(t *testing.T) {
	b, err := os.ReadFile("../testdata/recorded/stopped-dist-hang/runs/0002-breaks/combined.log")
	if err != nil {
		t.Fatal(err)
	}
	head := strings.Join(strings.SplitAfter(string(b), "\n")[:14], "")
	m := liveModel(t, 120, 32)
	lr := session.NewFollower(1, fixedNow.Add(-time.Minute))
	feedOutput(m, lr, 1, head, fixedNow.Add(-20*time.Second))
	m.cur.probe.started = 2
	out := plain(m)
	if strings.Contains(out, "not rank-tagged") || !strings.Contains(out, "torchrun job, no rank prefix") {
		t.Errorf("strip:\n%s", out)
	}
}

// While stalled, the screen says how long there was no output once, by one clock: the stall banner's and the
// alive line's words and seconds are the same (it read "no output for 23s" and "last output 24s ago").
func TestStalledScreenHasOneClock(t *testing.T) {
	m := liveModel(t, 120, 32)
	lr := session.NewFollower(1, fixedNow.Add(-time.Minute))
	last := fixedNow.Add(-23*time.Second - 600*time.Millisecond)
	feedOutput(m, lr, 1, "step 0 done\n", last.Add(50*time.Millisecond)) // the session got it a little later
	lr.Apply(session.Event{RunID: 1, Kind: session.EventStalled, Since: last}, fixedNow.Add(-3*time.Second))
	m.Update(batchMsg{lr.Batch(m.analyzer(), fixedNow.Add(-3*time.Second))})
	out := plain(m)
	if strings.Contains(out, "last output") || strings.Count(out, "no output for 23s") < 2 {
		t.Errorf("screen:\n%s", out)
	}
}

// On exit the line counts this session's runs as this session's, and the store's as the store's (it read "1 run
// stored in …/s4" of a store that held 2).
func TestExitLineSaysThisSession(t *testing.T) {
	got := exitLine(1, "/tmp/explore-dist/s4", 2, "0002-breaks")
	want := "torchtriage: this session stored 1 run in /tmp/explore-dist/s4 (2 runs there in all; last: 0002-breaks)"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := exitLine(2, "/s", 2, "0002-breaks"); got != "torchtriage: this session stored 2 runs in /s (last: 0002-breaks)" {
		t.Errorf("a store of this session's runs only: %q", got)
	}
}

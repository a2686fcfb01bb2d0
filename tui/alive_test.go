package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/torchtriage/torchtriage/triage/session"
)

// feedOutput hands the model a live run's batch after the given output (no torch records) arrived at at.
func feedOutput(m *Model, lr *session.Follower, id int, text string, at time.Time) {
	lr.Apply(session.Event{RunID: id, Kind: session.EventOutput, Stream: "stdout", Data: []byte(text)}, at)
	lr.Flush()
	b := lr.Batch(m.analyzer(), at)
	if b.Meta == nil {
		b.Meta = &session.Meta{ID: id, Name: "0001-breaks", Preset: "breaks", Start: fixedNow.Add(-time.Minute),
			State: session.StateRunning}
	}
	m.Update(batchMsg{b})
}

// While a run goes and nothing is found, the main screen shows it is alive: lines, bytes, the last line and how
// long ago output came.
func TestLiveRunWithNothingFoundShowsThatItIsAlive(t *testing.T) {
	m := liveModel(t, 80, 24)
	now := fixedNow.Add(-20 * time.Second)
	m.now = func() time.Time { return now }
	lr := session.NewFollower(1, fixedNow.Add(-time.Minute))
	feedOutput(m, lr, 1, "loading data\nepoch 1 step 1 loss 2.31\n", now)
	now = fixedNow.Add(-12 * time.Second)
	feedOutput(m, lr, 1, "epoch 1 step 2 loss 2.12\n", now)
	now = fixedNow
	m.Update(tickMsg(now))
	out := plain(m)
	for _, want := range []string{"alive: 3 lines, 63 B so far", "last output 12s ago", "last line: epoch 1 step 2 loss 2.12",
		"Running for 1:00", "no graph breaks so far"} {
		if !strings.Contains(out, want) {
			t.Errorf("screen lacks %q:\n%s", want, out)
		}
	}
}

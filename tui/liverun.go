package tui

import (
	"strconv"
	"time"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/runner"
)

// liveRun is the feed's state of one run: its parser, its log lines and what is waiting to be sent.
type liveRun struct {
	id        int
	live      *triage.Live
	log       *logWriter
	start     time.Time
	events    []tlEvent
	lastData  time.Time
	lastSent  time.Time
	unflushed bool // bytes arrived since the last Flush
	dirty     bool
	notes     []runNote
	meta      *runner.Meta
	final     bool
	snap      *snapshot
	stale     bool          // records arrived that the snapshot does not show yet
	lastBuild time.Time     // when the snapshot was last built
	buildCost time.Duration // how long that took: big runs are re-analysed less often
}

// buildDue is how long until the snapshot may be rebuilt: at most every batch, and no more than half the time
// spent analysing (a run with 100k records takes ~0.3 s per analysis; its log still updates every batch).
func (lr *liveRun) buildDue(now time.Time) time.Duration {
	return max(batchEvery, 2*lr.buildCost) - now.Sub(lr.lastBuild)
}

// liveInput is the name a run's records carry; the log buffer indexes its two streams under it.
func liveInput(id int) string { return "run" + strconv.Itoa(id) }

func newLiveRun(id int, now time.Time) *liveRun {
	in := liveInput(id)
	return &liveRun{id: id, live: triage.NewLive(id, in), log: newLogWriter(in+":stdout", in+":stderr"), start: now}
}

func (lr *liveRun) apply(ev runner.Event, now time.Time) {
	switch ev.Kind {
	case runner.EventOutput:
		lr.live.Feed(ev.Stream, ev.Data)
		i := 0
		if ev.Stream == "stderr" {
			i = 1
		}
		lr.log.write(i, ev.Data)
		lr.lastData, lr.unflushed, lr.dirty = now, true, true
		return
	case runner.EventExited:
		lr.log.flush()
		lr.live.Close()
		lr.unflushed, lr.final, lr.dirty = false, true, true
		lr.meta = ev.Meta
	case runner.EventStalled:
		at := ev.Since
		if at.IsZero() {
			at = now
		}
		lr.events = append(lr.events, tlEvent{at: at.Sub(lr.start), rank: -1, kind: tlStall})
	case runner.EventRelaunched:
		lr.meta = ev.Meta
	case runner.EventError:
		if ev.Meta != nil && ev.Meta.State == runner.StateFailedToStart {
			lr.log.flush()
			lr.live.Close()
			lr.meta, lr.final, lr.dirty = ev.Meta, true, true
		}
	}
	note := runNote{kind: ev.Kind, at: ev.Time, since: ev.Since, text: ev.Note, meta: ev.Meta}
	if ev.Err != nil {
		note.text = ev.Err.Error()
	}
	lr.notes = append(lr.notes, note)
}

// batch builds the run's message and resets what was pending.
func (lr *liveRun) batch(b *builder, now time.Time) batchMsg {
	msg := batchMsg{runID: lr.id, notes: lr.notes, meta: lr.meta, final: lr.final}
	fresh := lr.live.TakeNew()
	for _, r := range fresh {
		if k, ok := tlKindOf(r); ok {
			lr.events = append(lr.events, tlEvent{at: now.Sub(lr.start), rank: r.Rank, kind: k})
		}
	}
	if len(fresh) > 0 {
		lr.stale = true
	}
	if lr.snap == nil || lr.final || (lr.stale && lr.buildDue(now) <= 0) {
		t0 := time.Now()
		lr.snap = b.snapshot(lr.id, lr.live.Report(), len(lr.live.Records()), lr.events[:len(lr.events):len(lr.events)], now.Sub(lr.start), nil)
		lr.buildCost, lr.lastBuild, lr.stale = time.Since(t0), now, false
		msg.snap = lr.snap
	}
	msg.log = lr.log.view()
	lr.notes, lr.dirty, lr.lastSent = nil, false, now
	return msg
}

// tlKindOf says where a record goes on the timeline.
func tlKindOf(r *logparse.Record) (tlKind, bool) {
	switch r.Kind {
	case logparse.KindGraphBreak:
		return tlBreak, true
	case logparse.KindRecompile:
		return tlRecompile, true
	case logparse.KindLimitHit:
		return tlLimit, true
	case logparse.KindCudagraphSkip, logparse.KindCompileError:
		return tlOther, true
	}
	return 0, false
}

package session

import (
	"slices"
	"strconv"
	"time"

	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runner"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// Follower is the state of one run the session follows: its parser, its log lines and what is waiting to be
// sent. The session's feed drives one per run; Apply takes the runner's events, Batch makes the next batch.
type Follower struct {
	id        int
	live      *Live
	log       *LogWriter
	start     time.Time
	marks     []Mark
	out       OutputStats
	lastSent  time.Time
	dirty     bool
	notes     []Note
	meta      *runs.Meta
	final     bool
	traced    bool          // the run's TORCH_TRACE files were read to their end into its aggregate (at its end)
	stale     bool          // records arrived that the last analysis does not show yet
	analysed  bool          // an analysis was sent
	lastBuild time.Time     // when the analysis was last built
	buildCost time.Duration // how long that took: big runs are re-analysed less often
	lastPoll  time.Time     // when the run's TORCH_TRACE files were last looked at for growth (pollTraces)
}

// tracePoll is how often a running run's TORCH_TRACE files are looked at for growth while its console is quiet.
const tracePoll = time.Second

// pollTraces marks the analysis stale when the run's TORCH_TRACE files grew since they were read (a run may write
// its traces while its console says nothing); it returns how long until the next look (0: none is due: the run
// ended, or has no directory).
func (lr *Follower) pollTraces(now time.Time) time.Duration {
	if lr.final || lr.meta == nil || lr.meta.Dir == "" {
		return 0
	}
	if wait := tracePoll - now.Sub(lr.lastPoll); wait > 0 {
		return wait
	}
	lr.lastPoll = now
	if !lr.stale && lr.live.TracesGrew(lr.meta.Dir) {
		lr.stale = true
	}
	return tracePoll
}

// buildDue is how long until the analysis may be rebuilt: at most every batch, and no more than half the time
// spent analysing (a run with 100k records takes ~0.3 s per analysis; its log still updates every batch).
func (lr *Follower) buildDue(now time.Time) time.Duration {
	return max(BatchEvery, 2*lr.buildCost) - now.Sub(lr.lastBuild)
}

// LiveInput is the name a live run's records carry; its log indexes the two streams as LiveInput+":stdout" and
// LiveInput+":stderr".
func LiveInput(id int) string { return "run" + strconv.Itoa(id) }

// NewFollower starts following run id, which started at now.
func NewFollower(id int, now time.Time) *Follower {
	in := LiveInput(id)
	lr := &Follower{id: id, live: NewLive(id, in), log: NewLogWriter(in+":stdout", in+":stderr"), start: now}
	lr.log.TrackLast()
	return lr
}

// started gives the run its meta at start (unless an event gave one already): the next batch sends it and is
// analysed with it.
func (lr *Follower) started(m *runs.Meta) {
	if lr.meta == nil {
		lr.meta, lr.dirty, lr.stale = m, true, true
	}
}

// Apply takes one of the runner's events of the run, received at now.
func (lr *Follower) Apply(ev Event, now time.Time) {
	switch ev.Kind {
	case runner.EventOutput:
		lr.live.FeedAt(ev.Stream, ev.Data, now)
		i := 0
		if ev.Stream == "stderr" {
			i = 1
		}
		_, n := lr.log.Last()
		lr.log.UseFile(i, ev.File)
		lr.log.Write(i, ev.Data)
		if s := lr.log.Unfinished(i); s != "" {
			lr.out.LastLine = s
		} else if s, m := lr.log.Last(); m != n {
			lr.out.LastLine = s
		}
		lr.out.Bytes += len(ev.Data)
		lr.out.LastAt, lr.dirty = now, true
		return
	case runner.EventExited:
		lr.log.Flush()
		lr.live.Close()
		lr.final, lr.dirty = true, true
		lr.meta = ev.Meta
		lr.endStall(now)
	case runner.EventResumed:
		lr.endStall(now)
	case runner.EventStalled:
		at := ev.Since
		if at.IsZero() {
			at = now
		}
		if i := lr.openStall(); i < 0 || lr.marks[i].At != at.Sub(lr.start) { // not the same stall reported again
			lr.marks = append(lr.marks, Mark{At: at.Sub(lr.start), Rank: -1, Stall: true})
		}
	case runner.EventRelaunched:
		lr.meta = ev.Meta
	case runner.EventError:
		if ev.Meta != nil && ev.Meta.State == runs.StateFailedToStart {
			lr.log.Flush()
			lr.live.Close()
			lr.meta, lr.final, lr.dirty = ev.Meta, true, true
		}
	}
	note := Note{Kind: ev.Kind, At: ev.Time, Since: ev.Since, Text: ev.Note, Meta: ev.Meta}
	if ev.Err != nil {
		note.Text = ev.Err.Error()
	}
	lr.notes = append(lr.notes, note)
}

// openStall is the index of the stall mark still going, -1 when none is.
func (lr *Follower) openStall() int {
	for i := len(lr.marks) - 1; i >= 0; i-- {
		if lr.marks[i].Stall {
			if lr.marks[i].End == 0 {
				return i
			}
			return -1
		}
	}
	return -1
}

// endStall ends the stall still going at now. The marks are copied first: a batch already sent shares them.
func (lr *Follower) endStall(now time.Time) {
	if i := lr.openStall(); i >= 0 {
		lr.marks = slices.Clone(lr.marks)
		lr.marks[i].End = max(now.Sub(lr.start), lr.marks[i].At+1)
	}
}

// Flush completes every open record, as when all output stopped (an unfinished line waits for its end).
func (lr *Follower) Flush() {
	lr.live.Flush()
	lr.dirty = true
}

// FlushIdle completes the records of the channels (a stream's ranks) that printed no line for idleFlush before
// now, while others go on; it returns how long until another may have been idle that long (0: none).
func (lr *Follower) FlushIdle(now time.Time) time.Duration {
	n, next := lr.live.FlushIdle(now.Add(-idleFlush))
	if n > 0 {
		lr.dirty = true
	}
	if next.IsZero() {
		return 0
	}
	return max(next.Add(idleFlush).Sub(now), time.Millisecond)
}

// hold is how long to hold a batch that is due so that it shows a record that completes in at most batchHold
// (0: send it now). Records the batch carries already wait as long: at most batchHold more.
func (lr *Follower) hold(now time.Time) time.Duration {
	w := lr.live.Waiting()
	if w.IsZero() || len(lr.notes) > 0 {
		return 0
	}
	d := w.Add(idleFlush).Sub(now)
	if d <= 0 || now.Add(d).After(lr.lastSent.Add(BatchEvery+batchHold)) {
		return 0
	}
	return d
}

// Batch builds the run's batch and resets what was pending. The final batch is analysed with the probe files
// the run's processes wrote.
func (lr *Follower) Batch(an *Analyzer, now time.Time) Batch {
	b := Batch{RunID: lr.id, Notes: lr.notes, Meta: lr.meta, Final: lr.final}
	fresh := lr.live.TakeNew()
	for _, r := range fresh {
		if onTimeline(r.Kind) {
			lr.marks = append(lr.marks, Mark{At: now.Sub(lr.start), Rank: r.Rank, Kind: r.Kind})
		}
	}
	if len(fresh) > 0 {
		lr.stale = true
	}
	if !lr.analysed || lr.final || (lr.stale && lr.buildDue(now) <= 0) {
		t0 := time.Now()
		if lr.meta != nil && lr.meta.Dir != "" {
			// what the run's processes wrote beside its output, as soon as it exists: the probe files and the
			// TORCH_TRACE files (read on as they grow, ended with the run): the analysis open makes of its
			// directory. The UI takes the probe files of the final batch.
			b.Probes, _ = ReadProbes(lr.meta.Dir)
			if !lr.traced {
				lr.live.FollowTraces(lr.meta.Dir, lr.final)
				lr.traced = lr.final
			}
		}
		run := &report.RunFacts{Outcome: report.OutcomeRunning}
		if lr.meta != nil {
			run = RunFactsOf(*lr.meta)
		}
		an.analyze(&b, lr.live.Report(), b.Probes, run)
		lr.buildCost, lr.lastBuild, lr.stale, lr.analysed = time.Since(t0), now, false, true
	}
	b.Records = lr.live.Records()
	b.Timeline, b.Span = lr.marks[:len(lr.marks):len(lr.marks)], now.Sub(lr.start)
	if b.Timeline == nil {
		b.Timeline = []Mark{}
	}
	b.Log = lr.log.View()
	b.Output = lr.out
	b.Output.Lines = lr.log.Lines()
	lr.notes, lr.dirty, lr.lastSent = nil, false, now
	return b
}

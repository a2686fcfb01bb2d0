package session

import (
	"sync"
	"time"

	"github.com/torchtriage/torchtriage/triage/runner"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// Batching: a run's events become at most one batch per BatchEvery; an open record is completed once its
// channel (its stream's rank) printed nothing for idleFlush, whatever the run's other channels print (a
// record is otherwise complete only when the next one starts on its channel, or at the end). A batch that is
// due waits up to batchHold for a graph break, recompile, … that completes by then, so that a record waits at
// most ~max(batchHold, BatchEvery-batchHold) for its batch instead of BatchEvery.
const (
	BatchEvery = 100 * time.Millisecond
	idleFlush  = 120 * time.Millisecond
	batchHold  = 50 * time.Millisecond
)

// feed takes the runner's events of every run of the session (its sink never blocks) and turns them into
// batches on a channel. Parsing and analysis happen on its goroutine, not the caller's.
type feed struct {
	mu     sync.Mutex
	queue  []runner.Event
	notify chan struct{}
	out    chan Batch
	stop   chan struct{}
	once   sync.Once
	an     *Analyzer
	runs   map[int]*Follower  // owned by loop
	metas  map[int]*runs.Meta // runs' metas at start (Session.Start), for their followers (guarded by mu)
	ended  map[int]bool       // runs whose final batch went out: a meta at start that comes later is dropped
	now    func() time.Time
}

func newFeed(an *Analyzer) *feed {
	f := &feed{notify: make(chan struct{}, 1), out: make(chan Batch), stop: make(chan struct{}), an: an,
		runs: map[int]*Follower{}, metas: map[int]*runs.Meta{}, ended: map[int]bool{}, now: time.Now}
	go f.loop()
	return f
}

// sink is the runner's event callback: it queues and returns at once.
func (f *feed) sink(ev runner.Event) {
	f.mu.Lock()
	f.queue = append(f.queue, ev)
	f.mu.Unlock()
	select {
	case f.notify <- struct{}{}:
	default:
	}
}

// started tells the feed a run's meta at its start: its analysis then knows the run's TORCH_LOGS while it runs
// (the runner's events carry the meta only when the run ends), not only what its lines show.
func (f *feed) started(m runs.Meta) {
	f.mu.Lock()
	f.metas[m.ID] = &m
	f.mu.Unlock()
	select {
	case f.notify <- struct{}{}:
	default:
	}
}

// close stops the loop; pending events are dropped.
func (f *feed) close() { f.once.Do(func() { close(f.stop) }) }

func (f *feed) loop() {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-f.notify:
		case <-timer.C:
		}
		f.drain()
		wait, ok := f.emit()
		if !ok {
			return
		}
		if wait > 0 {
			timer.Reset(wait)
		}
	}
}

// drain applies the queued events to their runs.
func (f *feed) drain() {
	f.mu.Lock()
	evs := f.queue
	f.queue = nil
	var metas map[int]*runs.Meta
	if len(f.metas) > 0 { // told once per run: most drains take none and keep the empty map
		metas, f.metas = f.metas, map[int]*runs.Meta{}
	}
	f.mu.Unlock()
	now := f.now()
	follower := func(id int) *Follower {
		lr := f.runs[id]
		if lr == nil {
			lr = NewFollower(id, now)
			f.runs[id] = lr
		}
		return lr
	}
	for id, m := range metas {
		if !f.ended[id] { // a run that ended before its start was told has its final meta already
			follower(id).started(m)
		}
	}
	for _, ev := range evs {
		follower(ev.RunID).Apply(ev, now)
	}
}

// emit sends every batch that is due; it returns how long to wait for the next one (0: none pending) and false
// when the feed was stopped.
func (f *feed) emit() (time.Duration, bool) {
	var next time.Duration
	due := func(d time.Duration) {
		if d > 0 && (next == 0 || d < next) {
			next = d
		}
	}
	for id, lr := range f.runs {
		now := f.now()
		due(lr.FlushIdle(now))
		due(lr.pollTraces(now))
		if lr.stale && !lr.dirty && len(lr.notes) == 0 {
			if wait := lr.buildDue(now); wait > 0 {
				due(wait)
				continue
			}
			lr.dirty = true
		}
		if !lr.dirty && len(lr.notes) == 0 {
			continue
		}
		if wait := BatchEvery - now.Sub(lr.lastSent); wait > 0 {
			due(wait)
			continue
		}
		if hold := lr.hold(now); hold > 0 {
			due(hold)
			continue
		}
		b := lr.Batch(f.an, now)
		select {
		case f.out <- b:
			lr.lastSent = f.now() // the next batch is due BatchEvery after this one arrived, however long it took to build
		case <-f.stop:
			return 0, false
		}
		if b.Final {
			delete(f.runs, id)
			f.ended[id] = true
		}
	}
	return next, true
}

package tui

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/torchtriage/torchtriage/triage/runner"
)

// Batching: a run's events become at most one message per batchEvery; open records are completed after the
// stream was idle for idleFlush (a record is otherwise complete only when the next one starts).
const (
	batchEvery = 100 * time.Millisecond
	idleFlush  = 120 * time.Millisecond
)

// batchMsg is one run's news since its previous batch.
type batchMsg struct {
	runID int
	snap  *snapshot // nil when no record changed
	log   logBuffer // the run's log so far (append-only views)
	notes []runNote // state changes, in order
	meta  *runner.Meta
	final bool // the run is over; no more batches for it
}

// runNote is a state change of a run.
type runNote struct {
	kind  runner.EventKind
	at    time.Time
	since time.Time // stalls: last output
	text  string    // relaunch note, error text
	meta  *runner.Meta
}

// feed takes the runner's events of every run of the session (its sink never blocks) and turns them into
// batchMsgs on a channel that the model listens to. Parsing and analysis happen on its goroutine, not the UI's.
type feed struct {
	mu     sync.Mutex
	queue  []runner.Event
	notify chan struct{}
	out    chan tea.Msg
	stop   chan struct{}
	once   sync.Once
	build  *builder
	runs   map[int]*liveRun // owned by loop
	now    func() time.Time
}

func newFeed(b *builder) *feed {
	f := &feed{notify: make(chan struct{}, 1), out: make(chan tea.Msg), stop: make(chan struct{}), build: b,
		runs: map[int]*liveRun{}, now: time.Now}
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

// close stops the loop; pending events are dropped.
func (f *feed) close() { f.once.Do(func() { close(f.stop) }) }

// listen is the command that waits for the next batch.
func (f *feed) listen() tea.Cmd {
	return func() tea.Msg {
		select {
		case m := <-f.out:
			return m
		case <-f.stop:
			return nil
		}
	}
}

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
	f.mu.Unlock()
	now := f.now()
	for _, ev := range evs {
		lr := f.runs[ev.RunID]
		if lr == nil {
			lr = newLiveRun(ev.RunID, now)
			f.runs[ev.RunID] = lr
		}
		lr.apply(ev, now)
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
		if lr.unflushed && now.Sub(lr.lastData) >= idleFlush {
			lr.live.Flush()
			lr.unflushed = false
			lr.dirty = true
		} else if lr.unflushed {
			due(idleFlush - now.Sub(lr.lastData))
		}
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
		if wait := batchEvery - now.Sub(lr.lastSent); wait > 0 {
			due(wait)
			continue
		}
		msg := lr.batch(f.build, now)
		select {
		case f.out <- msg:
		case <-f.stop:
			return 0, false
		}
		if msg.final {
			delete(f.runs, id)
		}
	}
	return next, true
}

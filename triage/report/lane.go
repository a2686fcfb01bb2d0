package report

import "github.com/torchtriage/torchtriage/logparse"

// recompLane folds the recompile and dynamic-log records on a goroutine of its own while Add goes on with every
// other record: a log of many recompiles (bench/many.sh: 50,000) otherwise keeps one core on Add while the parsers
// wait for it. The lane owns the recompile summaries and the details (a.recomps, a.det) while it runs, and its own
// intern table; the records reach it in Add's order, so what it folds, and in which order, is what Add would have.
// Load turns it on (FoldAside) for a whole load and settles it before the report; nothing else reads what it owns.
type recompLane struct {
	ch    chan []*logparse.Record
	free  chan []*logparse.Record // batches folded, emptied: toLane fills them again (bench/many.sh: 196 of 2 KB)
	done  chan struct{}
	batch []*logparse.Record
}

const laneBatch = 256

// FoldAside makes Add fold recompile and dynamic-log records on a goroutine of their own until Settle or Report,
// which end it. The caller must call one of them once the records are in, or the goroutine stays.
func (a *Aggregator) FoldAside() {
	a.mu.Lock()
	a.aside = true
	a.mu.Unlock()
}

// Settle waits for the records handed aside to be folded, ends the lane's goroutine and FoldAside: later records
// are folded in Add. Idempotent.
func (a *Aggregator) Settle() {
	a.mu.Lock()
	a.settle()
	a.mu.Unlock()
}

// toLane hands r to the lane, starting it at need; false where records are folded here (no FoldAside).
func (a *Aggregator) toLane(r *logparse.Record) bool {
	if !a.aside {
		return false
	}
	l := a.lane
	if l == nil {
		l = &recompLane{ch: make(chan []*logparse.Record, 8), free: make(chan []*logparse.Record, 10),
			done: make(chan struct{})}
		a.lane = l
		go a.runLane(l)
	}
	if l.batch == nil {
		select {
		case l.batch = <-l.free:
		default:
			l.batch = make([]*logparse.Record, 0, laneBatch)
		}
	}
	if l.batch = append(l.batch, r); len(l.batch) == laneBatch {
		l.ch <- l.batch
		l.batch = nil
	}
	return true
}

func (a *Aggregator) runLane(l *recompLane) {
	defer close(l.done)
	for batch := range l.ch {
		for _, r := range batch {
			a.foldAside(r, &a.laneNames, &a.laneInput)
		}
		clear(batch) // a batch kept for reuse must not keep its records
		select {
		case l.free <- batch[:0]:
		default:
		}
	}
}

// fold folds a record the lane takes: on the lane under FoldAside, else here with Add's intern table and last input.
func (a *Aggregator) fold(r *logparse.Record) {
	if !a.toLane(r) {
		a.foldAside(r, &a.names, &a.lastInput)
	}
}

// foldAside folds one record the lane takes, with the intern table and last input given (the lane's, or Add's).
func (a *Aggregator) foldAside(r *logparse.Record, in *strs, lastInput *string) {
	if r.Kind == logparse.KindShapeEnv {
		a.det.shape(r, in)
		return
	}
	a.addRecompile(r, in, lastInput)
}

// settle (a.mu held) hands the lane its last batch, waits for it to end and folds in Add from then on.
func (a *Aggregator) settle() {
	a.aside = false
	l := a.lane
	if l == nil {
		return
	}
	if len(l.batch) > 0 {
		l.ch <- l.batch
	}
	close(l.ch)
	<-l.done
	a.lane = nil
}

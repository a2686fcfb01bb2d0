package session

import (
	"sync"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage"
)

// Live follows one run while it prints: its stdout and stderr are parsed separately (records are assembled
// per stream), every record is folded into the run's aggregator and kept for the UI. Feed it the runner's
// output events; call Flush when the stream went idle (records are complete when another starts, at the end,
// or after an idle gap) and Close at the end. It is safe for concurrent use.
type Live struct {
	RunID   int
	mu      sync.Mutex
	agg     *triage.Aggregator
	parsers map[string]*logparse.Parser
	records []*logparse.Record // every built record, in completion order
	fresh   []*logparse.Record // records not yet taken by TakeNew
	input   string
}

// NewLive starts following run runID; input names the run in evidence (e.g. its run dir).
func NewLive(runID int, input string) *Live {
	l := &Live{RunID: runID, agg: triage.NewAggregator(), parsers: map[string]*logparse.Parser{}, input: input}
	l.agg.AddInput(input, -1)
	return l
}

func (l *Live) parser(stream string) *logparse.Parser {
	p := l.parsers[stream]
	if p == nil {
		name := l.input
		if stream != "" {
			name += ":" + stream
		}
		p = logparse.NewParser(logparse.Options{Input: name, Stream: stream, Rank: -1, KeepText: true,
			OnRank: l.agg.AddRank}, l.take)
		l.parsers[stream] = p
	}
	return p
}

// take is the parsers' emit function; it runs under l.mu (parsers are only driven under it).
func (l *Live) take(r *logparse.Record) {
	l.records = append(l.records, r)
	l.fresh = append(l.fresh, r)
	l.agg.Add(r)
}

// Feed parses a chunk of a stream ("stdout" or "stderr").
func (l *Live) Feed(stream string, data []byte) {
	l.mu.Lock()
	l.parser(stream).Write(data)
	l.mu.Unlock()
}

// Flush completes the records that are open (after an idle gap); an unfinished line waits for its end.
func (l *Live) Flush() {
	l.mu.Lock()
	for _, p := range l.parsers {
		p.FlushRecords()
	}
	l.mu.Unlock()
}

// Close ends every stream.
func (l *Live) Close() {
	l.mu.Lock()
	for _, p := range l.parsers {
		p.Flush()
	}
	l.mu.Unlock()
}

// TakeNew returns the records completed since the last call (a batch for the UI).
func (l *Live) TakeNew() []*logparse.Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.fresh
	l.fresh = nil
	return out
}

// Records returns every record so far (the slice must not be modified).
func (l *Live) Records() []*logparse.Record {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.records[:len(l.records):len(l.records)]
}

// Report summarises the run so far.
func (l *Live) Report() *triage.Report {
	l.mu.Lock()
	for _, p := range l.parsers {
		l.agg.AddFacts(p.Facts())
	}
	l.mu.Unlock()
	return l.agg.Report()
}

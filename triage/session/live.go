package session

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/logparse/trace"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Live follows one run while it prints: its stdout and stderr are parsed separately (records are assembled
// per stream), every record is folded into the run's aggregator and kept for the UI. Feed it the runner's
// output events; call FlushIdle as time passes (a record is complete when the next one starts on its channel,
// at the end, or when its channel went idle) and Close at the end. It is safe for concurrent use. Records are
// kept only until TakeNew hands them out: a run that prints for hours holds its aggregate, not its records.
type Live struct {
	RunID   int
	mu      sync.Mutex
	agg     *report.Aggregator
	parsers map[string]*logparse.Parser
	marks   map[string][]feedMark // per stream: its feeds not yet older than the idle gap FlushIdle was given
	records int                   // torch records built so far (plain output's are not counted)
	fresh   []*logparse.Record    // records not yet taken by TakeNew
	input   string
	traces  map[string]*traceFollow // the run's TORCH_TRACE files by path (FollowTraces)
}

// feedMark is where a stream's parser was (its Lines) after a chunk that arrived at at.
type feedMark struct {
	at    time.Time
	lines int
}

// maxMarks bounds a stream's marks when FlushIdle is not called: the oldest go (their records then wait for a
// later mark).
const maxMarks = 4096

// NewLive starts following run runID; input names the run in evidence (e.g. its run dir).
func NewLive(runID int, input string) *Live {
	l := &Live{RunID: runID, agg: report.NewAggregator(), parsers: map[string]*logparse.Parser{},
		marks: map[string][]feedMark{}, input: input, traces: map[string]*traceFollow{}}
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
	if !r.Plain() {
		l.records++
	}
	l.fresh = append(l.fresh, r)
	l.agg.Add(r)
}

// Feed parses a chunk of a stream ("stdout" or "stderr") that arrives now.
func (l *Live) Feed(stream string, data []byte) { l.FeedAt(stream, data, time.Now()) }

// FeedAt parses a chunk of a stream that arrived at at (times of one stream do not go back).
func (l *Live) FeedAt(stream string, data []byte, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.parser(stream)
	before := p.Lines()
	p.Write(data)
	if p.Lines() == before {
		return // no line ended: nothing new to complete later
	}
	m := l.marks[stream]
	if n := len(m); n > 0 && m[n-1].at.Equal(at) {
		m[n-1].lines = p.Lines()
		return
	}
	if len(m) >= maxMarks {
		m = m[:copy(m, m[1:])]
	}
	l.marks[stream] = append(m, feedMark{at, p.Lines()})
}

// FlushIdle completes the records of every channel (a stream's rank or local rank) that printed no line after
// before, however much other channels print; an unfinished line waits for its end. It returns how many records
// it completed and when the oldest output after before arrived (zero when none did): a channel may be idle
// from then on.
func (l *Live) FlushIdle(before time.Time) (completed int, next time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.fresh)
	for _, stream := range sortedStreams(l.marks) {
		m := l.marks[stream]
		i := 0
		for i < len(m) && !m[i].at.After(before) {
			i++
		}
		if i > 0 {
			l.parsers[stream].FlushIdle(m[i-1].lines)
			m = m[:copy(m, m[i:])]
			l.marks[stream] = m
		}
		if len(m) > 0 && (next.IsZero() || m[0].at.Before(next)) {
			next = m[0].at
		}
	}
	return len(l.fresh) - n, next
}

// Waiting returns when the last line came of the open record with a known head (a graph break, a recompile,
// …; not plain output) that has waited longest: FlushIdle completes it idleFlush later unless its channel goes
// on. Zero when none is open.
func (l *Live) Waiting() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	var w time.Time
	for stream, m := range l.marks {
		last := l.parsers[stream].OldestOpen()
		if last == 0 {
			continue
		}
		if i, _ := slices.BinarySearchFunc(m, last, func(m feedMark, line int) int { return m.lines - line }); i < len(m) &&
			(w.IsZero() || m[i].at.Before(w)) {
			w = m[i].at
		}
	}
	return w
}

// sortedStreams lists the streams with marks in a fixed order (records complete in the same order every time).
func sortedStreams(m map[string][]feedMark) []string {
	out := make([]string, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Flush completes every open record; an unfinished line waits for its end.
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

// Records returns how many torch records were built so far: those an opened log counts (not plain output).
func (l *Live) Records() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.records
}

// Report summarises the run so far.
func (l *Live) Report() *report.Report {
	l.mu.Lock()
	for _, p := range l.parsers {
		l.agg.AddFacts(p.Facts())
	}
	l.mu.Unlock()
	return l.agg.Report()
}

// FollowTraces reads on in the TORCH_TRACE files a run writes into its directory (runDir/trace, as the trace
// preset points TORCH_TRACE) into the run's aggregate, as report and open read that directory: a 2-rank job whose
// console lines carry no rank prefix is judged by its ranks' traces on the live screen too, as soon as they
// state their ranks, not only when opened. Each call reads what was written since the last (a file's records
// come as its lines complete, trace.Reader); final ends every file (the run is over). The trace records
// are not handed out by TakeNew (the console's are: the timeline). It returns how many trace files it follows.
// It does I/O: call it off the UI goroutine, and from one goroutine only (with TracesGrew: the session's feed).
func (l *Live) FollowTraces(runDir string, final bool) int {
	dir := filepath.Join(runDir, "trace")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return len(l.traces)
	}
	if found, err := logparse.Find([]string{dir}); err == nil {
		for _, in := range found.Inputs {
			if in.Trace && l.traces[in.Path] == nil {
				l.mu.Lock()
				l.agg.AddInput(in.Name, -1) // a trace's records carry its one rank (report.Load does the same)
				l.mu.Unlock()
				l.traces[in.Path] = &traceFollow{r: trace.NewReader(logparse.Options{Input: in.Name,
					Stream: in.Stream, Rank: in.Rank, SkipOther: true, OnRank: l.agg.AddRank, OnFacts: l.agg.AddFacts})}
			}
		}
	}
	for _, path := range slices.Sorted(maps.Keys(l.traces)) {
		tf := l.traces[path]
		if tf.done {
			continue
		}
		data := tf.readOn(path, final)
		l.mu.Lock()
		_, _ = tf.r.Write(data)
		if final {
			tf.r.Close() // reports the file's facts
			tf.done = true
		}
		for _, r := range tf.r.Take() {
			l.agg.Add(r)
		}
		l.mu.Unlock()
		if !final {
			l.agg.AddFacts(tf.r.Facts())
		}
	}
	return len(l.traces)
}

// TracesGrew reports whether a TORCH_TRACE file of the run directory has bytes FollowTraces has not read (a new
// file with some, or one grown since). It does I/O (a directory read, a stat a file): off the UI goroutine.
func (l *Live) TracesGrew(runDir string) bool {
	dir := filepath.Join(runDir, "trace")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() == 0 {
			continue
		}
		tf := l.traces[filepath.Join(dir, e.Name())]
		if tf == nil || (!tf.done && info.Size() > tf.off) {
			return true
		}
	}
	return false
}

// traceFollow is one TORCH_TRACE file a live run writes: its reader and how much of it was read.
type traceFollow struct {
	r    *trace.Reader
	off  int64
	done bool
}

// maxTraceRead bounds what one refresh reads of a trace file (the rest comes at the next).
const maxTraceRead = 64 << 20

// readOn reads what was written to the file since the last call (all of it when the run is over).
func (tf *traceFollow) readOn(path string, all bool) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if _, err := f.Seek(tf.off, io.SeekStart); err != nil {
		return nil
	}
	var r io.Reader = f
	if !all {
		r = io.LimitReader(f, maxTraceRead)
	}
	data, _ := io.ReadAll(r)
	tf.off += int64(len(data))
	return data
}

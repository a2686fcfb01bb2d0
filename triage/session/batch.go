package session

import (
	"time"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/runs"
)

// Batch is one run's news since its previous batch (or an opened run, whole).
type Batch struct {
	RunID    int
	Analysis *triage.Analysis // nil when no record changed since the previous batch
	View     any              // what Options.Decorate made of Analysis, built off the caller's goroutine
	Records  int              // records parsed so far
	Timeline []Mark           // the run's timeline so far (never nil in a batch the session made)
	Span     time.Duration    // timeline length
	// Untimed are the kinds of timeline records (an opened run's) that carry no time stamp, in order: a Python
	// traceback or warning prints none, so they are counted but not placed on the timeline.
	Untimed []logparse.Kind
	Log     Log                  // the run's output so far (an append-only view)
	Output  OutputStats          // how much the run printed, and its last line: it is alive while nothing is found
	Notes   []Note               // state changes, in order
	Meta    *runs.Meta           // the run's meta when it changed
	Probes  []report.ProcessInfo // what the probe wrote (final batches and opened runs)
	// Warnings are an opened run's: what reading its files showed beyond the report (a binary file, one that
	// changed while read, paths to a file already read: read once), a line each.
	Warnings []string
	Final    bool // the run is over; no more batches for it
}

// OutputStats sum up a run's output so far (stdout and stderr together).
type OutputStats struct {
	Lines int // complete lines
	Bytes int
	// LastLine is the last non-blank line, an unfinished one included (a progress bar shows its latest state
	// after '\r'), cleaned (Clean), without surrounding spaces and cut to 1 KiB; "" before any.
	LastLine string
	LastAt   time.Time // when output last came, blank lines included (zero before any)
}

// Note is a state change of a run.
type Note struct {
	Kind  EventKind
	At    time.Time
	Since time.Time // stalls: the last output
	Text  string    // relaunch note, error text
	Meta  *runs.Meta
}

// Analyzer turns reports into analyses with one playbook set (which remembers its matches) and the caller's
// decoration (the UI's rows), so that both happen where the parsing does, not on the UI goroutine.
type Analyzer struct {
	Set      *playbooks.Set
	Decorate func(*triage.Analysis) any // optional
}

func (an *Analyzer) analyze(b *Batch, rep *report.Report, probes []report.ProcessInfo, run *report.RunFacts) {
	var set *playbooks.Set
	if an != nil {
		set = an.Set
	}
	b.Analysis = triage.AnalyzeRun(rep, set, probes, run)
	if an != nil && an.Decorate != nil {
		b.View = an.Decorate(b.Analysis)
	}
}

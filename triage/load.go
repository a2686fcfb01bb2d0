package triage

import (
	"io"
	"sort"
	"sync"

	"github.com/torchtriage/torchtriage/logparse"
)

// LoadOptions say how Load reads its inputs.
type LoadOptions struct {
	Stdin io.Reader // what "-" reads (os.Stdin when nil)
	// OnInputs, when set, is told the inputs found before they are parsed (the UI indexes their lines meanwhile).
	OnInputs func([]logparse.Input)
	// OnRecord, when set, is given every record built, one at a time (the UI's timeline). Records are built as
	// for counting (no text, none of unknown kind), by the same parallel engine as report's.
	OnRecord func(*logparse.Record)
}

// Loaded is what Load read: the report of all inputs together.
type Loaded struct {
	Report   *Report
	Inputs   []logparse.Input
	Warnings []string // inputs that are readable but look wrong (binary), sorted
	Skipped  []string // log-named entries of the directories that are not regular files (FIFOs, devices)
}

// Load discovers and parses paths (files, directories, "-" for stdin) into one report: the one loader behind
// report, check, diff and open. A path that cannot be read is an error.
func Load(paths []string, opt LoadOptions) (*Loaded, error) {
	inputs, skipped, err := logparse.DiscoverSkipping(paths)
	if err != nil {
		return nil, err
	}
	agg := NewAggregator()
	for _, in := range inputs {
		rank := in.Rank
		if in.Trace {
			rank = -1 // a trace's records carry its one rank: its envelopes', or else the file name's
		}
		agg.AddInput(in.Name, rank)
	}
	out := &Loaded{Inputs: inputs, Skipped: skipped}
	if opt.OnInputs != nil {
		opt.OnInputs(inputs)
	}
	var mu sync.Mutex
	emit := agg.Add
	if opt.OnRecord != nil {
		emit = func(r *logparse.Record) {
			mu.Lock()
			opt.OnRecord(r)
			mu.Unlock()
			agg.Add(r)
		}
	}
	sink := logparse.Sink{Emit: emit, OnRank: agg.AddRank, OnFacts: agg.AddFacts, OnWarning: func(w string) {
		mu.Lock()
		out.Warnings = append(out.Warnings, w)
		mu.Unlock()
	}}
	errs := logparse.ParseInputs(inputs, 16, false, opt.Stdin, sink)
	sort.Strings(out.Warnings) // inputs are parsed concurrently
	if len(errs) > 0 {
		return out, errs[0]
	}
	out.Report = agg.Report()
	return out, nil
}

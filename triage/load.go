package triage

import (
	"io"
	"sort"
	"sync"

	"github.com/torchtriage/torchtriage/logparse"
)

// LoadOptions say how Load reads its inputs.
type LoadOptions struct {
	Stdin       io.Reader // what "-" reads (os.Stdin when nil)
	KeepRecords bool      // keep every record with its text (the UI's log and timeline); counting needs none
}

// Loaded is what Load read: the report of all inputs together and, with KeepRecords, every record.
type Loaded struct {
	Report   *Report
	Inputs   []logparse.Input
	Records  []*logparse.Record // nil unless KeepRecords
	Warnings []string           // inputs that are readable but look wrong (binary), sorted
	Skipped  []string           // log-named entries of the directories that are not regular files (FIFOs, devices)
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
	var mu sync.Mutex
	emit := agg.Add
	if opt.KeepRecords {
		emit = func(r *logparse.Record) {
			mu.Lock()
			out.Records = append(out.Records, r)
			mu.Unlock()
			agg.Add(r)
		}
	}
	sink := logparse.Sink{Emit: emit, OnRank: agg.AddRank, OnFacts: agg.AddFacts, OnWarning: func(w string) {
		mu.Lock()
		out.Warnings = append(out.Warnings, w)
		mu.Unlock()
	}}
	errs := logparse.ParseInputs(inputs, 16, opt.KeepRecords, opt.Stdin, sink)
	sort.Strings(out.Warnings) // inputs are parsed concurrently
	if len(errs) > 0 {
		return out, errs[0]
	}
	out.Report = agg.Report()
	return out, nil
}

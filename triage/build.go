package triage

import (
	"io"
	"sort"
	"sync"

	"github.com/torchtriage/torchtriage/logparse"
)

// BuildReport discovers and parses paths ("-" = stdin) into one report. A path that cannot be read is an
// error; inputs that looked binary come back as warnings.
func BuildReport(paths []string, stdin io.Reader) (*Report, []string, error) {
	inputs, err := logparse.Discover(paths)
	if err != nil {
		return nil, nil, err
	}
	agg := NewAggregator()
	for _, in := range inputs {
		agg.AddInput(in.Name, in.Rank)
	}
	var mu sync.Mutex
	var warnings []string
	sink := logparse.Sink{Emit: agg.Add, OnRank: agg.AddRank, OnWarning: func(w string) {
		mu.Lock()
		warnings = append(warnings, w)
		mu.Unlock()
	}}
	errs := logparse.ParseInputs(inputs, 16, false, stdin, sink)
	sort.Strings(warnings) // inputs are parsed concurrently
	if len(errs) > 0 {
		return nil, warnings, errs[0]
	}
	return agg.Report(), warnings, nil
}

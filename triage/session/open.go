package session

import (
	"errors"
	"os"

	"github.com/torchtriage/torchtriage/triage"
)

// Open loads saved logs (files, run directories, TORCH_TRACE directories) as one finished run: each input is read
// once, for its records and for the log view; run directories add their probe files.
func Open(paths []string, an *Analyzer) (Batch, error) {
	for _, p := range paths {
		if p == "-" {
			return Batch{}, errors.New("open reads files, not standard input: use torchtriage report - for a pipe")
		}
	}
	l, err := triage.Load(paths, triage.LoadOptions{KeepRecords: true})
	if err != nil {
		return Batch{}, err
	}
	var names []string
	for _, in := range l.Inputs {
		names = append(names, in.Name)
	}
	w := NewLogWriter(names...)
	for i, in := range l.Inputs {
		if in.Trace {
			continue
		}
		data, err := os.ReadFile(in.Path)
		if err != nil {
			return Batch{}, err
		}
		if len(l.Inputs) > 1 {
			w.Header("── " + in.Name + " ──")
		}
		w.Write(i, data)
		w.Flush()
	}
	var probes []ProcessInfo
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			more, _ := ReadProbes(p)
			probes = append(probes, more...)
		}
	}
	b := Batch{Records: len(l.Records), Log: w.View(), Probes: probes, Final: true}
	b.Timeline, b.Span = recordTimeline(l.Records)
	var run *triage.RunFacts
	if len(paths) == 1 {
		run = RunFactsOfDir(paths[0])
	}
	an.analyze(&b, l.Report, probes, run)
	return b, nil
}

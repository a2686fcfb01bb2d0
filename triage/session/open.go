package session

import (
	"errors"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Open loads saved logs (files, run directories, TORCH_TRACE directories) as one finished run: the inputs are
// parsed by report's parallel engine while another goroutine indexes their lines for the log view (which reads
// them back from the files: the text is never held); run directories add their probe files.
func Open(paths []string, an *Analyzer) (Batch, error) {
	for _, p := range paths {
		if p == "-" {
			return Batch{}, errors.New("open reads files, not standard input: use torchtriage report - for a pipe")
		}
	}
	var (
		wg       sync.WaitGroup
		w        *LogWriter
		indexErr error
		tl       timelineBuilder
	)
	l, err := report.Load(paths, report.LoadOptions{
		OnInputs: func(inputs []logparse.Input) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w, indexErr = indexInputs(inputs)
			}()
		},
		OnRecord: tl.add,
	})
	wg.Wait()
	if err == nil {
		err = indexErr
	}
	if err != nil {
		return Batch{}, err
	}
	paths = l.Paths // less those naming a file or directory named before them
	var probes []report.ProcessInfo
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			more, _ := ReadProbes(p)
			probes = append(probes, more...)
		}
	}
	b := Batch{Records: tl.records, Log: w.View(), Probes: probes, Final: true, Warnings: l.Warnings}
	if len(l.ReadOnce) > 0 {
		b.Warnings = append(b.Warnings, report.AliasesText(l.ReadOnce))
	}
	b.Timeline, b.Span = tl.marks()
	b.Untimed = tl.untimed
	var run *report.RunFacts
	if len(paths) == 1 {
		run = RunFactsOfDir(paths[0])
	}
	an.analyze(&b, l.Report, probes, run)
	return b, nil
}

// indexInputs indexes the lines of the inputs, TORCH_TRACE files included (their records' evidence points at
// their lines), with a header before each when there are several.
func indexInputs(inputs []logparse.Input) (*LogWriter, error) {
	names, paths := make([]string, len(inputs)), make([]string, len(inputs))
	for i, in := range inputs {
		names[i], paths[i] = in.Name, in.Path
	}
	w := NewFileLogWriter(names, paths)
	buf := make([]byte, 1<<20)
	for i, in := range inputs {
		if len(inputs) > 1 {
			w.Header("── " + in.Name + " ──")
		}
		if err := indexFile(w, i, in.Path, buf); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// indexFile writes a file's bytes to input i of w.
func indexFile(w *LogWriter, i int, path string, buf []byte) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	for {
		n, err := f.Read(buf)
		w.Write(i, buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	w.Flush()
	return nil
}

// timelineBuilder keeps of each record what the timeline shows (Load calls add one record at a time).
type timelineBuilder struct {
	records int
	first   time.Time
	pending []Mark // At holds the record's Unix nanoseconds until marks
	untimed []logparse.Kind
}

func (t *timelineBuilder) add(r *logparse.Record) {
	t.records++
	if r.Time.IsZero() {
		if onTimeline(r.Kind) && !slices.Contains(t.untimed, r.Kind) {
			t.untimed = append(t.untimed, r.Kind)
			slices.Sort(t.untimed)
		}
		return
	}
	if t.first.IsZero() || r.Time.Before(t.first) {
		t.first = r.Time
	}
	if onTimeline(r.Kind) {
		t.pending = append(t.pending, Mark{At: time.Duration(r.Time.UnixNano()), Rank: r.Rank, Kind: r.Kind})
	}
}

// marks returns the timeline: times from the first record's, in order.
func (t *timelineBuilder) marks() ([]Mark, time.Duration) {
	base := time.Duration(t.first.UnixNano())
	var span time.Duration
	for i := range t.pending {
		t.pending[i].At -= base
		span = max(span, t.pending[i].At)
	}
	sortMarks(t.pending)
	return t.pending, span
}

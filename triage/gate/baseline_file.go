package gate

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/steady"
)

// BaselineSchema names the baseline file format of `torchtriage check --write-baseline`. v2 keys graph breaks
// by identity (file, function, cause, source line text: identity.go); v1 files, written before, keyed them by
// line and are still read (matched by those keys).
const (
	BaselineSchema   = "torchtriage.baseline/v2"
	BaselineSchemaV1 = "torchtriage.baseline/v1"
)

// Baseline is the set of graph breaks (site + what), recompile reason classes (function + guard class) and
// CUDA-graph skip reasons a known-good run had.
type Baseline struct {
	Schema string         `json:"schema"`
	Inputs []string       `json:"inputs"`
	Items  []BaselineItem `json:"items"`
	// Compile is compile time per frame compile (gate_compile.go); empty when the run had none.
	Compile []BaselineFrame `json:"compile,omitempty"`
	// Command is the command of the run it was written from (what the user ran, "python3 repro.py"); empty for
	// logs alone. A run of another command shows nothing of what it had: its items are not "gone" there.
	Command string `json:"command,omitempty"`
	// Coverage is how much the run captured (report.Coverage, from its probes); absent when it was not probed. A
	// later run's new graph breaks beside more calls captured are "breaks up, coverage up", not a failure.
	Coverage *report.Coverage `json:"coverage,omitempty"`
	// AfterWarmup is the run's steady state (steady.AfterWarmup): its warm-up, step clock and what compiled after;
	// absent when the probe kept no steps
	AfterWarmup *steady.AfterWarmup `json:"after_warmup,omitempty"`

	byLine bool // a v1 file: items keyed by Finding.lineKey
}

// BaselineItem is one compared item; Key is Finding.CompareKey (in a v1 file, the key of its time).
type BaselineItem struct {
	Key      string        `json:"key"`
	Kind     findings.Kind `json:"kind"`
	Title    string        `json:"title"`
	Playbook string        `json:"playbook,omitempty"`
	Records  int           `json:"records"`
	Expected bool          `json:"expected,omitempty"`

	finding *findings.Finding
}

// baselineKinds are the finding kinds a baseline holds.
var baselineKinds = map[findings.Kind]bool{findings.KindGraphBreak: true, findings.KindRecompile: true, findings.KindCudagraphSkip: true}

// baselineItems groups the analysis' breaks, recompiles and skips by a key (CompareKey, or lineKey for a v1
// baseline), sorted by key. An item is expected when every finding behind it is.
func baselineItems(a *triage.Analysis, keyOf func(*findings.Finding) string) []BaselineItem {
	by := map[string]*BaselineItem{}
	for i := range a.Findings {
		f := &a.Findings[i]
		if !baselineKinds[f.Kind] {
			continue
		}
		k := keyOf(f)
		it := by[k]
		if it == nil {
			it = &BaselineItem{Key: k, Kind: f.Kind, Title: f.Title, Playbook: f.Playbook, Expected: true, finding: f}
			if f.Kind == findings.KindRecompile {
				it.Title = findings.FnDisplay(f.Function, 0) + ": " + f.FirstClass()
			}
			by[k] = it
		}
		it.Records += f.Records
		if !f.Expected {
			if it.Expected {
				it.finding, it.Playbook = f, f.Playbook
			}
			it.Expected = false
		}
	}
	out := make([]BaselineItem, 0, len(by))
	for _, it := range by {
		out = append(out, *it)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// NewBaseline records the analysis as a baseline.
func NewBaseline(a *triage.Analysis) *Baseline {
	b := &Baseline{Schema: BaselineSchema, Inputs: []string{}, Items: baselineItems(a, (*findings.Finding).CompareKey)}
	if a.Report != nil {
		b.Compile = BaselineFrames(a.Report.Compile)
	}
	b.Coverage, b.AfterWarmup = a.Coverage, a.AfterWarmup
	if a.Report != nil && a.Report.Inputs != nil {
		b.Inputs = a.Report.Inputs
	}
	return b
}

// WriteBaseline writes the baseline as indented JSON.
func WriteBaseline(path string, b *Baseline) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("cannot write baseline %s: %w", path, unwrapPath(err))
	}
	return nil
}

// ReadBaseline reads a baseline written by WriteBaseline.
func ReadBaseline(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read baseline %s: %w", path, unwrapPath(err))
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("baseline %s is not valid JSON: %v", path, err)
	}
	switch b.Schema {
	case BaselineSchema:
	case BaselineSchemaV1:
		b.byLine = true
	default:
		return nil, fmt.Errorf("baseline %s: schema %q, want %q (write one with --write-baseline)", path, b.Schema, BaselineSchema)
	}
	for i, it := range b.Items {
		if it.Key == "" || !baselineKinds[it.Kind] {
			return nil, fmt.Errorf("baseline %s: item %d has no key or an unknown kind %q", path, i+1, it.Kind)
		}
	}
	return &b, nil
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

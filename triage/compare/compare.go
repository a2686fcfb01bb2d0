package compare

import (
	"math"
	"slices"
	"sort"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// The A/B of two runs: why is B slower (or faster) than A. Versions and settings that differ, compile time per
// phase and per frame, cache state, findings new and gone, the run's metric; ordered by contribution, with a
// one-line verdict. Differences within noise are not differences.

// Schema names the JSON of `torchtriage compare`.
const Schema = "torchtriage.compare/v1"

// Side is what the comparison needs of one run.
type Side struct {
	Name     string               // what the user typed
	Analysis *triage.Analysis     // the run's analysis
	Probes   []report.ProcessInfo // the probe files (versions, env, config), may be nil
	Metric   *float64             // meta.json's metric, when the run was stored with one
}

// Result is `torchtriage compare A B`.
type Result struct {
	Schema       string        `json:"schema"`
	A            []string      `json:"a"`
	B            []string      `json:"b"`
	Verdict      string        `json:"verdict"`
	Same         bool          `json:"no_difference"`
	Versions     []Change      `json:"versions"`
	Settings     []Change      `json:"settings"`
	Compile      *Delta        `json:"compile_total,omitempty"`
	Phases       []Delta       `json:"phases"`
	Frames       []Delta       `json:"frames"`
	Ranks        []Delta       `json:"ranks"`
	Caches       []CacheChange `json:"caches"`
	Findings     DiffResult    `json:"findings"`
	FindingsNew  []string      `json:"compile_findings_new"`
	FindingsGone []string      `json:"compile_findings_gone"`
	Metric       *Delta        `json:"metric,omitempty"`
	// Coverage is each side's capture beside its graph breaks (coverage.go); absent when neither side was probed
	Coverage *CoverageChange `json:"coverage,omitempty"`
	// NotCompared says what one side or both could not show ("compile time: B has none …", and the findings'
	// kinds a side did not log): "no difference" is said only when it is empty.
	NotCompared []string `json:"not_compared"`
	// PhaseNote says why the phases do not compare one to one ("" when they do): a cold and a warm start (an FX
	// graph or AOTAutograd cache went between hit and miss).
	PhaseNote string `json:"phase_note,omitempty"`

	// settingsWhy says why settings (and versions) were not compared: a side recorded none ("" when both did)
	settingsWhy []string
	// noPair says what makes A and B no like-for-like pair ("A compiled nothing (…)", "A and B ran different
	// commands"): the verdict leads with it
	noPair []string
}

// SetCommands records that A and B are runs of different commands (words: diff's "A and B ran different commands
// (A: … · B: …)", "" when they are not): the verdict leads with it, as diff's text does.
func (res *Result) SetCommands(words string) {
	if words == "" {
		return
	}
	res.Findings.Commands = words
	res.noPair = append(res.noPair, "A and B ran different commands")
	res.Verdict, res.Same = res.DecideVerdict()
}

// phaseNote sets PhaseNote where a compile cache went between hit and miss.
func (res *Result) NotePhases() {
	for _, c := range res.Caches {
		if (c.Cache == "fx_graph" || c.Cache == "aot_autograd") && c.Changed() && (c.From.hits() && c.To.misses() || c.From.misses() && c.To.hits()) {
			res.PhaseNote = "A and B are a cold and a warm start: on a cache hit Inductor reports no time and the backend's " +
				"(loading the compiled graph) counts under aot, so aot and inductor do not compare one to one"
			return
		}
	}
}

// Compare compares run A with run B.
func Compare(a, b Side) Result {
	res := Result{Schema: Schema, A: a.Analysis.Report.Inputs, B: b.Analysis.Report.Inputs,
		Versions: []Change{}, Settings: []Change{}, Phases: []Delta{}, Frames: []Delta{}, Ranks: []Delta{},
		Caches: []CacheChange{}, FindingsNew: []string{}, FindingsGone: []string{}}
	res.settings(a.Probes, b.Probes, a.Analysis.Report, b.Analysis.Report, a.Analysis.Run.ToolEnvironment(), b.Analysis.Run.ToolEnvironment())
	if slices.Equal(res.A, res.B) { // one input against itself: its settings are its own
		res.settingsWhy = nil
	}
	ca, cb := a.Analysis.Report.Compile, b.Analysis.Report.Compile
	if ca != nil || cb != nil {
		res.compile(ca, cb)
	}
	res.Findings = Diff(a.Analysis, b.Analysis)
	res.Coverage = coverageOf(a.Analysis, b.Analysis)
	for _, x := range []struct {
		name string
		an   *triage.Analysis
	}{{"A", a.Analysis}, {"B", b.Analysis}} {
		if x.an.Evidence.TorchSeen && x.an.Evidence.NothingCompiled() != "" {
			res.noPair = append(res.noPair, x.name+" compiled nothing ("+x.an.Evidence.NothingCompiledShort()+")")
		}
	}

	ida, idb := compileFindingIDs(a.Analysis), compileFindingIDs(b.Analysis)
	for id := range idb {
		if !ida[id] {
			res.FindingsNew = append(res.FindingsNew, id)
		}
	}
	for id := range ida {
		if !idb[id] {
			res.FindingsGone = append(res.FindingsGone, id)
		}
	}
	sort.Strings(res.FindingsNew)
	sort.Strings(res.FindingsGone)
	if a.Metric != nil && b.Metric != nil {
		d := delta("metric", a.Metric, b.Metric, 0)
		d.Big = math.Abs(*b.Metric-*a.Metric) > report.MetricNoiseFactor*math.Max(math.Abs(*a.Metric), math.Abs(*b.Metric))
		res.Metric = &d
	}
	res.NotCompared = append(slices.Clone(res.settingsWhy), notCompared(ca, cb, res.Findings.NotCompared)...)
	res.NotePhases()
	res.Verdict, res.Same = res.DecideVerdict()
	return res
}

// notCompared: compile time where a side has none (only TORCH_TRACE or the probe records it), then the kinds of
// findings a side did not log.
func notCompared(ca, cb *report.CompileReport, findings []string) []string {
	has := func(c *report.CompileReport) bool { return c != nil && c.TotalS != nil }
	what := func(cs ...*report.CompileReport) string { // a side without compile records has unknown caches too
		if slices.Contains(cs, nil) {
			return "compile time and caches"
		}
		return "compile time"
	}
	out := []string{}
	switch {
	case !has(ca) && !has(cb):
		out = append(out, what(ca, cb)+": neither side has any (TORCH_TRACE or the probe records them)")
	case !has(ca):
		out = append(out, what(ca)+": A has none (TORCH_TRACE or the probe records them)")
	case !has(cb):
		out = append(out, what(cb)+": B has none (TORCH_TRACE or the probe records them)")
	}
	return append(out, findings...)
}

func compileFindingIDs(a *triage.Analysis) map[string]bool {
	out := map[string]bool{}
	for _, f := range a.Findings {
		if f.Kind == findings.KindCacheMiss || f.Kind == findings.KindCompileTime || f.Kind == findings.KindConfigParity {
			out[f.ID] = true
		}
	}
	return out
}

package triage

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// The A/B of two runs: why is B slower (or faster) than A. Versions and settings that differ, compile time per
// phase and per frame, cache state, findings new and gone, the run's metric; ordered by contribution, with a
// one-line verdict. Differences within noise are not differences.

// CompareSchema names the JSON of `torchtriage compare`.
const CompareSchema = "torchtriage.compare/v1"

// Noise: a compile-time change counts when it is at least this large and this much of the smaller side
// (15 %: the threshold of PyTorch's compile-time dashboard).
const (
	noiseS            = 1.0
	DefaultTolerance  = 0.15
	metricNoiseFactor = 0.05
)

// CompareSide is what the comparison needs of one run.
type CompareSide struct {
	Name     string        // what the user typed
	Analysis *Analysis     // the run's analysis
	Probes   []ProcessInfo // the probe files (versions, env, config), may be nil
	Metric   *float64      // meta.json's metric, when the run was stored with one
}

// Change is one setting or version that differs: A and B are "(unset)" when absent.
type Change struct {
	Key   string `json:"key"`
	A     string `json:"a"`
	B     string `json:"b"`
	Knob  bool   `json:"knob,omitempty"` // a compile-time or cache knob (§5 table)
	Cache bool   `json:"cache,omitempty"`
	// Tool: torchtriage set it (a preset's variable), on the side where it is set, not the user
	Tool bool `json:"tool_set,omitempty"`
}

// Delta is a number in A and in B; nil where a side has none.
type Delta struct {
	What   string   `json:"what"`
	A      *float64 `json:"a,omitempty"`
	B      *float64 `json:"b,omitempty"`
	DeltaS *float64 `json:"delta_s,omitempty"`
	Ratio  *float64 `json:"ratio,omitempty"`
	CacheA string   `json:"cache_a,omitempty"` // frames: warm | cold | partial | bypass
	CacheB string   `json:"cache_b,omitempty"`
	Rank   *int     `json:"rank,omitempty"`
	Big    bool     `json:"significant"`
}

// CacheChange is one cache's lookups in A and B, and their change of state where both sides show their lookups and
// the states differ (From and To; both zero otherwise).
type CacheChange struct {
	Cache string     `json:"cache"`
	A     CacheStats `json:"a"`
	B     CacheStats `json:"b"`
	From  CacheState `json:"from,omitempty"`
	To    CacheState `json:"to,omitempty"`
}

// Changed reports a change of state.
func (c CacheChange) Changed() bool { return c.From != 0 && c.To != 0 && c.From != c.To }

// Change words the change of state: "miss → hit", "hit → mostly hit", "" where there is none.
func (c CacheChange) Change() string {
	if !c.Changed() {
		return ""
	}
	return c.From.String() + " → " + c.To.String()
}

// cacheChangeJSON is CacheChange's JSON: change (the words, as before from and to were written) beside from and to.
type cacheChangeJSON struct {
	Cache  string     `json:"cache"`
	A      CacheStats `json:"a"`
	B      CacheStats `json:"b"`
	Change string     `json:"change,omitempty"` // "hit → miss", "miss → hit", "" (no change of state)
	From   CacheState `json:"from,omitempty"`
	To     CacheState `json:"to,omitempty"`
}

// MarshalJSON writes the change with its words.
func (c CacheChange) MarshalJSON() ([]byte, error) {
	j := cacheChangeJSON{Cache: c.Cache, A: c.A, B: c.B}
	if c.Changed() {
		j.Change, j.From, j.To = c.Change(), c.From, c.To
	}
	return json.Marshal(j)
}

// CompareResult is `torchtriage compare A B`.
type CompareResult struct {
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
func (res *CompareResult) SetCommands(words string) {
	if words == "" {
		return
	}
	res.Findings.Commands = words
	res.noPair = append(res.noPair, "A and B ran different commands")
	res.Verdict, res.Same = res.verdict()
}

// phaseNote sets PhaseNote where a compile cache went between hit and miss.
func (res *CompareResult) phaseNote() {
	for _, c := range res.Caches {
		if (c.Cache == "fx_graph" || c.Cache == "aot_autograd") && c.Changed() && (c.From.hits() && c.To.misses() || c.From.misses() && c.To.hits()) {
			res.PhaseNote = "A and B are a cold and a warm start: on a cache hit Inductor reports no time and the backend's " +
				"(loading the compiled graph) counts under aot, so aot and inductor do not compare one to one"
			return
		}
	}
}

func delta(what string, a, b *float64, tol float64) Delta {
	d := Delta{What: what, A: roundOpt(a), B: roundOpt(b)}
	if a != nil && b != nil {
		d.DeltaS = fptr(round6(*b - *a))
		if *a > 0 {
			d.Ratio = fptr(math.Round(*b / *a * 1000) / 1000)
		}
		lo := math.Min(*a, *b)
		d.Big = math.Abs(*b-*a) >= noiseS && math.Abs(*b-*a) >= tol*lo
	} else {
		d.Big = (a != nil && *a >= noiseS) || (b != nil && *b >= noiseS)
	}
	return d
}

// Compare compares run A with run B.
func Compare(a, b CompareSide) CompareResult {
	res := CompareResult{Schema: CompareSchema, A: a.Analysis.Report.Inputs, B: b.Analysis.Report.Inputs,
		Versions: []Change{}, Settings: []Change{}, Phases: []Delta{}, Frames: []Delta{}, Ranks: []Delta{},
		Caches: []CacheChange{}, FindingsNew: []string{}, FindingsGone: []string{}}
	res.settings(a.Probes, b.Probes, a.Analysis.Report, b.Analysis.Report, a.Analysis.Run.toolEnv(), b.Analysis.Run.toolEnv())
	if slices.Equal(res.A, res.B) { // one input against itself: its settings are its own
		res.settingsWhy = nil
	}
	ca, cb := a.Analysis.Report.Compile, b.Analysis.Report.Compile
	if ca != nil || cb != nil {
		res.compile(ca, cb)
	}
	res.Findings = Diff(a.Analysis, b.Analysis)
	for _, x := range []struct {
		name string
		an   *Analysis
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
		d.Big = math.Abs(*b.Metric-*a.Metric) > metricNoiseFactor*math.Max(math.Abs(*a.Metric), math.Abs(*b.Metric))
		res.Metric = &d
	}
	res.NotCompared = append(slices.Clone(res.settingsWhy), notCompared(ca, cb, res.Findings.NotCompared)...)
	res.phaseNote()
	res.Verdict, res.Same = res.verdict()
	return res
}

// notCompared: compile time where a side has none (only TORCH_TRACE or the probe records it), then the kinds of
// findings a side did not log.
func notCompared(ca, cb *CompileReport, findings []string) []string {
	has := func(c *CompileReport) bool { return c != nil && c.TotalS != nil }
	what := func(cs ...*CompileReport) string { // a side without compile records has unknown caches too
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

func compileFindingIDs(a *Analysis) map[string]bool {
	out := map[string]bool{}
	for _, f := range a.Findings {
		if f.Kind == KindCacheMiss || f.Kind == KindCompileTime || f.Kind == KindConfigParity {
			out[f.ID] = true
		}
	}
	return out
}

// settings lists the versions and env/config settings that differ (probe files of the lowest rank of each
// side; the report's torch version when no probe says). A variable the tool set in each run to a path in that
// run's own directory (TORCH_TRACE: toolA, toolB are what the tool added to each) is no difference.
func (res *CompareResult) settings(pa, pb []ProcessInfo, ra, rb *Report, toolA, toolB map[string]string) {
	va, vb := firstProbe(pa), firstProbe(pb)
	if va == nil || vb == nil {
		ta, tb := ptrStr(ra.TorchVersion), ptrStr(rb.TorchVersion)
		if va != nil {
			ta = va.Torch
		}
		if vb != nil {
			tb = vb.Torch
		}
		if ta != tb && ta != "" && tb != "" {
			res.Versions = append(res.Versions, Change{Key: "version.torch", A: ta, B: tb, Cache: true})
		}
		side := "A has no probe file"
		switch {
		case va == nil && vb == nil:
			side = "neither side has a probe file"
		case vb == nil:
			side = "B has no probe file"
		}
		res.settingsWhy = append(res.settingsWhy, "settings: "+side+" (a log or a TORCH_TRACE dir records none)")
		switch {
		case ta == "" && tb == "":
			res.settingsWhy = append(res.settingsWhy, "torch version: neither side states it")
		case ta == "":
			res.settingsWhy = append(res.settingsWhy, "torch version: A does not state it")
		case tb == "":
			res.settingsWhy = append(res.settingsWhy, "torch version: B does not state it")
		}
		return
	}
	sa, sb := settings(*va), settings(*vb)
	keys := map[string]bool{}
	for k := range sa {
		keys[k] = true
	}
	for k := range sb {
		keys[k] = true
	}
	for _, k := range sortedStrings(keys) {
		x, okx := sa[k]
		y, oky := sb[k]
		if okx && oky && x == y { // settings() leaves per-rank variables out
			continue
		}
		if k == "env.TORCH_LOGS" && okx && oky && SameLogNames(x, y) { // the same names in another order
			continue
		}
		if name, env := strings.CutPrefix(k, "env."); env && okx && oky && toolA[name] == x && toolB[name] == y &&
			withoutRunDir(x) == withoutRunDir(y) {
			continue // each run's own directory, set by the tool
		}
		if !strings.HasPrefix(k, "env.") && !strings.HasPrefix(k, "version.") && okx != oky && va.Torch != vb.Torch {
			continue // a config only one torch version has (2.6's cache_size_limit, 2.14's recompile_limit): the version differs, not a setting
		}
		if !okx {
			x = Missing
		}
		if !oky {
			y = Missing
		}
		if strings.HasPrefix(k, "version.") { // a version the probe recorded empty: none (a CPU build's CUDA)
			x, y = cmp.Or(x, "(none)"), cmp.Or(y, "(none)")
		}
		c := Change{Key: k, A: x, B: y, Knob: IsKnob(k), Cache: isCacheKnob(k) || k == "version.torch"}
		if name, env := strings.CutPrefix(k, "env."); env && (okx && toolA[name] == x || oky && toolB[name] == y) {
			c.Tool = true
		}
		if strings.HasPrefix(k, "version.") {
			res.Versions = append(res.Versions, c)
		} else {
			res.Settings = append(res.Settings, c)
		}
	}
	// knobs first, and of a knob its environment variable before the config it sets
	rank := func(c Change) int {
		n := 2
		if c.Knob {
			n = 0
		}
		if !strings.HasPrefix(c.Key, "env.") {
			n++
		}
		return n
	}
	sort.SliceStable(res.Settings, func(i, j int) bool { return rank(res.Settings[i]) < rank(res.Settings[j]) })
}

// withoutRunDir is a path with its run directory ("0008-trace", a component of a number and a name) as "RUN".
func withoutRunDir(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		digits := strings.IndexFunc(p, func(r rune) bool { return r < '0' || r > '9' })
		if digits >= 4 && p[digits] == '-' {
			parts[i] = "RUN"
		}
	}
	return strings.Join(parts, "/")
}

func firstProbe(ps []ProcessInfo) *ProcessInfo {
	var best *ProcessInfo
	for i := range ps {
		if best == nil || ps[i].Rank < best.Rank {
			best = &ps[i]
		}
	}
	return best
}

func ptrStr(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// String renders a change as "KEY: A → B".
func (c Change) String() string {
	s := fmt.Sprintf("%s: %s → %s", strings.TrimPrefix(c.Key, "env."), c.A, c.B)
	if c.Tool {
		s += " (set by torchtriage's preset)"
	}
	return s
}

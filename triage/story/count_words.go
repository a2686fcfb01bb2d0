package story

import (
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
)

// CountWords is one count of a run as the log words it, once for the text line (Words), the Markdown table and
// the trend (Value) and the JSON (both), by the rules of the run's report: "2 graph breaks" / "2"; "≥0 graph
// breaks" / "≥0" of a run that did not complete; "at least 1 graph break" / "≥1" where some printed though the
// kind was not (all) logged; "recompiles not in the log" / "not in the log" where no count stands; "graph breaks
// not counted (nothing compiled)" / "—" where the run printed no torch output or compiled nothing.
type CountWords struct {
	Count string `json:"count"` // the key of Counts: graph_breaks, recompiles, recompile_limit_hits, …
	Value string `json:"value"`
	Words string `json:"words"`
}

// countWords words every count of an analysed run (nil without an analysis).
func countWords(r *Run) []CountWords {
	an, c := r.an, r.Counts
	if an == nil || c == nil {
		return nil
	}
	ev, rc := an.Evidence, an.Report.Counts
	none := ""
	switch {
	case !r.Logged.Torch:
		none = "no torch output"
	case ev.NothingCompiled() != "":
		none = "nothing compiled"
	}
	exact := func(key string, n int, noun string) CountWords {
		v, w := strconv.Itoa(n), triage.Plural(n, noun)
		if r.unfinished() {
			v, w = triage.Floor(v), triage.Floor(w)
		}
		return CountWords{key, v, w}
	}
	word := func(key string, n int, noun string, counted, floor bool, absent string) CountWords {
		switch {
		case none != "":
			return CountWords{key, "—", noun + "s not counted (" + none + ")"}
		case !counted:
			return CountWords{key, absent, noun + "s " + absent}
		case floor:
			return CountWords{key, "≥" + strconv.Itoa(n), "at least " + triage.Plural(n, noun)}
		}
		return exact(key, n, noun)
	}
	absent := ev.LoggingOf(false).Words()
	silenced := ev.LogSilenced != ""
	ce := word("compile_errors", c.CompileErrors, "compile error", true, false, "")
	if none == "" {
		ce.Value += triage.CaughtSuffix(c.CompileErrorsCaught)
		ce.Words += triage.CaughtSuffix(c.CompileErrorsCaught)
	}
	return []CountWords{
		word("graph_breaks", c.GraphBreaks, "graph break", an.BreaksCounted(), an.BreaksFloor(), absent),
		word("recompiles", c.Recompiles, "recompile", an.RecompilesCounted(), an.RecompilesFloor(), absent),
		word("recompile_limit_hits", c.LimitHits, "limit hit", !silenced || c.LimitHits > 0, silenced, triage.LoggingSilenced.Words()),
		word("cudagraph_skips", rc.CudagraphSkips, "CUDA-graph skip", an.SkipsCounted(), false, absent),
		ce,
		exact("runtime_errors", c.RuntimeErrors, "runtime error"),
	}
}

// countWord is the run's words of one count (a zero CountWords when it has none).
func (r *Run) countWord(key string) CountWords {
	for _, cw := range r.CountWords {
		if cw.Count == key {
			return cw
		}
	}
	return CountWords{}
}

// countsLine is the text line of a run's counts: each count's words, the GPU counts, its processes.
func (r *Run) countsLine() string {
	lg, c := r.Logged, r.Counts
	var items []string
	switch {
	case !lg.Torch:
		items = []string{"no torch output: nothing counted"}
	case r.an != nil && r.an.Evidence.NothingCompiled() != "": // its zeros count nothing
		items = []string{"nothing compiled (" + r.an.Evidence.NothingCompiledShort() + ")"}
	default:
		for _, cw := range r.CountWords[:5] {
			items = append(items, cw.Words)
		}
		runtime := ""
		if c.RuntimeErrors > 0 {
			runtime = " · " + r.countWord("runtime_errors").Words
		}
		if r.an != nil && r.an.Evidence.LogSilenced != "" { // why its counts are not in the log, as the report's "Based on"
			runtime += " · log silenced (" + r.an.Evidence.LogSilenced + ")"
		}
		return strings.Join(items, " · ") + gpuCounts(c, lg, runtime) + " · " + r.processesText()
	}
	if c.RuntimeErrors > 0 {
		items = append(items, r.countWord("runtime_errors").Words)
	}
	return strings.Join(append(items, r.processesText()), " · ")
}

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

// Nouns names the kinds of a run's counts: LongNouns in the bringup log ("2 graph breaks"), ShortNouns where a
// line has little room (the TUI's runs list: "2 breaks"). The nouns are all that differs: whether a count is
// exact, a floor or no count at all is WordCounts' rule for both.
type Nouns uint8

const (
	LongNouns Nouns = iota
	ShortNouns
)

// The keys of CountWords.Count (the keys of Counts), in the order WordCounts gives them.
const (
	CountGraphBreaks    = "graph_breaks"
	CountRecompiles     = "recompiles"
	CountLimitHits      = "recompile_limit_hits"
	CountCudagraphSkips = "cudagraph_skips"
	CountCompileErrors  = "compile_errors"
	CountRuntimeErrors  = "runtime_errors"
)

// nouns are each count's noun, long and short (by Nouns).
var nouns = map[string][2]string{
	CountGraphBreaks:    {"graph break", "break"},
	CountRecompiles:     {"recompile", "recompile"},
	CountLimitHits:      {"limit hit", "limit hit"},
	CountCudagraphSkips: {"CUDA-graph skip", "skip"},
	CountCompileErrors:  {"compile error", "error"},
	CountRuntimeErrors:  {"runtime error", "runtime error"},
}

// countWords words every count of an analysed run (nil without an analysis): WordCounts with the log's nouns.
func countWords(r *Run) []CountWords {
	if r.an == nil || r.Counts == nil {
		return nil
	}
	return WordCounts(r.an, LongNouns)
}

// WordCounts words every count of an analysis by the rules of its report (nil without one), naming each kind
// with the nouns chosen: exact ("2 graph breaks"); "≥N" where the run did not complete (Analysis.Unfinished: what
// it never reached is not counted, a run still going included); "at least N" where some printed though the kind
// was not (all) logged; "not logged", "unknown" or "not in the log" where no count stands; "not counted (no torch
// output)" / "not counted (nothing compiled)" where nothing was counted (Uncounted is the one phrase for those).
// The bringup log and the TUI's runs list both word a run's counts with it.
func WordCounts(an *triage.Analysis, n Nouns) []CountWords {
	if an == nil || an.Report == nil {
		return nil
	}
	ev, c := an.Evidence, an.Report.Counts
	none := ""
	switch {
	case !ev.TorchSeen:
		none = "no torch output"
	case ev.NothingCompiled() != "":
		none = "nothing compiled"
	}
	unfinished := an.Unfinished() != ""
	exact := func(key string, count int) CountWords {
		v, w := strconv.Itoa(count), triage.Plural(count, nouns[key][n])
		if unfinished {
			v, w = triage.Floor(v), triage.Floor(w)
		}
		return CountWords{key, v, w}
	}
	word := func(key string, count int, counted, floor bool, absent string) CountWords {
		noun := nouns[key][n]
		switch {
		case none != "":
			return CountWords{key, "—", noun + "s not counted (" + none + ")"}
		case !counted:
			return CountWords{key, absent, noun + "s " + absent}
		case floor:
			return CountWords{key, "≥" + strconv.Itoa(count), "at least " + triage.Plural(count, noun)}
		}
		return exact(key, count)
	}
	absent := ev.LoggingOf(false).Words()
	silenced := ev.LogSilenced != ""
	ce := word(CountCompileErrors, c.CompileErrors, true, false, "")
	if none == "" {
		caught := an.CaughtCompileErrors()
		ce.Value += triage.CaughtSuffix(caught)
		ce.Words += triage.CaughtSuffix(caught)
	}
	return []CountWords{
		word(CountGraphBreaks, c.GraphBreaks, an.BreaksCounted(), an.BreaksFloor(), absent),
		word(CountRecompiles, c.Recompiles, an.RecompilesCounted(), an.RecompilesFloor(), absent),
		word(CountLimitHits, c.RecompileLimitHits, !silenced || c.RecompileLimitHits > 0, silenced, triage.LoggingSilenced.Words()),
		word(CountCudagraphSkips, c.CudagraphSkips, an.SkipsCounted(), false, absent),
		ce,
		exact(CountRuntimeErrors, c.RuntimeErrors),
	}
}

// Uncounted is the one phrase that stands for every count of an analysed run that counted nothing: "no torch
// output: nothing counted" (the report's words, Analysis.NoTorchText), "nothing compiled (torch.compile off:
// TORCHDYNAMO_DISABLE=1)"; "" where its counts stand, each as WordCounts words it.
func Uncounted(an *triage.Analysis) string {
	switch {
	case an == nil:
		return ""
	case !an.Evidence.TorchSeen:
		return an.NoTorchText()
	case an.Evidence.NothingCompiled() != "":
		return "nothing compiled (" + an.Evidence.NothingCompiledShort() + ")"
	}
	return ""
}

// Grouped is counts' words as the items of a line: the counts that stand for no count for one reason ("not in
// the log", "not logged", "unknown") are one item where the first of them stands, their kinds named together
// ("recompiles, limit hits, CUDA-graph skips not in the log"); every other count is its own words, in ws' order.
// The log's text line and the TUI's runs list group ws so (n: the nouns ws was worded with); the Markdown table
// and the JSON keep a cell and an entry per count.
func Grouped(ws []CountWords, n Nouns) []string {
	var out []string
	at := map[string]int{} // an absent phrase -> its item
	for _, cw := range ws {
		kinds := nouns[cw.Count][n] + "s"
		if cw.Value == "" || cw.Words != kinds+" "+cw.Value || cw.Value[0] >= '0' && cw.Value[0] <= '9' {
			out = append(out, cw.Words) // a count, a floor, "not counted", or words of no kind this knows
			continue
		}
		if i, ok := at[cw.Value]; ok {
			out[i] = strings.TrimSuffix(out[i], " "+cw.Value) + ", " + kinds + " " + cw.Value
			continue
		}
		at[cw.Value] = len(out)
		out = append(out, cw.Words)
	}
	return out
}

// WordOf is the words of one count among ws (a zero CountWords when ws has none of it).
func WordOf(ws []CountWords, key string) CountWords {
	for _, cw := range ws {
		if cw.Count == key {
			return cw
		}
	}
	return CountWords{}
}

// countWord is the run's words of one count (a zero CountWords when it has none).
func (r *Run) countWord(key string) CountWords { return WordOf(r.CountWords, key) }

// countsLine is the text line of a run's counts: each count's words, the GPU counts, its processes; where nothing
// was counted, the one phrase that says so (Uncounted), its runtime errors and its processes.
func (r *Run) countsLine() string {
	lg, c := r.Logged, r.Counts
	if none := Uncounted(r.an); none != "" { // its zeros count nothing
		items := []string{none}
		if c.RuntimeErrors > 0 {
			items = append(items, r.countWord(CountRuntimeErrors).Words)
		}
		return strings.Join(append(items, r.processesText()), " · ")
	}
	items := Grouped(r.CountWords[:5], LongNouns) // the kinds missing for one reason in one phrase
	runtime := ""
	if c.RuntimeErrors > 0 {
		runtime = " · " + r.countWord(CountRuntimeErrors).Words
	}
	if r.an.Evidence.LogSilenced != "" { // why its counts are not in the log, as the report's "Based on"
		runtime += " · log silenced (" + r.an.Evidence.LogSilenced + ")"
	}
	return strings.Join(items, " · ") + gpuCounts(c, lg, runtime) + " · " + r.processesText()
}

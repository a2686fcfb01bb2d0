package story

import (
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
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

// Counted says the words are a count, exact or a floor ("2", "≥0", "≥1", "0 (1 caught)"), not why there is
// none ("not logged", "not in the log", "—").
func (cw CountWords) Counted() bool {
	return cw.Value != "" && (cw.Value[0] >= '0' && cw.Value[0] <= '9' || strings.HasPrefix(cw.Value, "≥"))
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
// The bringup log and the TUI's runs list both word a run's counts with it (Rules.Word, one count at a time).
func WordCounts(an *triage.Analysis, n Nouns) []CountWords {
	if an == nil || an.Report == nil {
		return nil
	}
	rl, c := RulesOf(an), an.Report.Counts
	ce := rl.Word(CountCompileErrors, c.CompileErrors, n)
	if rl.none == "" {
		caught := an.CaughtCompileErrors()
		ce.Value += triage.CaughtSuffix(caught)
		ce.Words += triage.CaughtSuffix(caught)
	}
	return []CountWords{
		rl.Word(CountGraphBreaks, c.GraphBreaks, n),
		rl.Word(CountRecompiles, c.Recompiles, n),
		rl.Word(CountLimitHits, c.RecompileLimitHits, n),
		rl.Word(CountCudagraphSkips, c.CudagraphSkips, n),
		ce,
		rl.Word(CountRuntimeErrors, c.RuntimeErrors, n),
	}
}

// Rules are what WordCounts words an analysis's counts by, read from the analysis once: whether any count stands,
// whether the run completed, which kinds were logged, whether the log was silenced. Word words one count with
// them, the run's or one rank's (the TUI's ranks strip and Ranks view word each rank's so, as the report's "Per
// rank" does).
type Rules struct {
	none       string // "no torch output", "nothing compiled": no count stands (Analysis.NothingCountedWhy)
	unfinished bool   // the run did not complete, or still runs: a count is a floor
	absent     string // a kind not shown to be logged: "not logged", "unknown"
	silenced   bool   // the log was silenced: a limit hit it shows is a floor, none is no count
	counted    map[string]bool
	// logged: graph breaks and recompiles print only while their TORCH_LOGS name is on; where it was not, the count
	// Word is given is "at least N" where some printed and no count where none did (the run's or one rank's)
	logged map[string]bool
}

// RulesOf reads the rules of an analysis (WordCounts' and Word's).
func RulesOf(an *triage.Analysis) Rules {
	ev := an.Evidence
	return Rules{none: an.NothingCountedWhy(), unfinished: an.CountsAreFloors(), absent: ev.LoggingOf(false).Words(),
		silenced: ev.LogSilenced != "", counted: map[string]bool{CountCudagraphSkips: an.SkipsCounted(), CountCompileErrors: true},
		logged: map[string]bool{CountGraphBreaks: ev.GraphBreaksLogged, CountRecompiles: ev.RecompilesLogged}}
}

// Word words count, of the kind key (CountGraphBreaks, …), by the rules: exact, "≥N", "at least N", no count
// for a reason ("recompiles not in the log", Value that reason) or "not counted (…)" (Value "—"). Runtime errors
// are counted whatever was logged: exact, or a floor. count is the run's (the analysis's BreaksCounted and
// BreaksFloor say the same of it) or one rank's: a rank that printed no break of a kind not logged has no count of
// it, whatever the other ranks printed (the report's "Per rank": "breaks not logged", not "at least 0"). Point
// draws the same decision (judge) for a trend.
func (rl Rules) Word(key string, count int, n Nouns) CountWords {
	noun, j := nouns[key][n], rl.judge(key, count)
	switch {
	case j.none != "":
		return CountWords{key, "—", noun + "s " + notCounted(j.none)}
	case !j.counted:
		return CountWords{key, j.absent, noun + "s " + j.absent}
	case j.atLeast:
		return CountWords{key, "≥" + strconv.Itoa(count), "at least " + report.Plural(count, noun)}
	}
	v, w := strconv.Itoa(count), report.Plural(count, noun)
	if j.floor {
		v, w = report.Floor(v), report.Floor(w)
	}
	return CountWords{key, v, w}
}

// Point is one count as a trend draws it (the TUI's sparkline, the log's trend line), by the decision Word words:
// -1 where Word gives no count ("not logged", "not in the log", "not counted (…)"), else count, a floor where Word
// says "≥N" or "at least N".
func (rl Rules) Point(key string, count int) (value int, floor bool) {
	j := rl.judge(key, count)
	if j.none != "" || !j.counted {
		return -1, false
	}
	return count, j.atLeast || j.floor
}

// judgement is what the rules make of one count, before any words: Word words it, Point draws it.
type judgement struct {
	none    string // no count of the run stands: "no torch output", "nothing compiled" (runtime errors apart)
	counted bool   // a count stands, exact or a floor; else absent says why not ("not logged", "not in the log")
	absent  string
	atLeast bool // some printed of a kind not (all) logged: "at least N"
	floor   bool // the run did not complete: "≥N"
}

func (rl Rules) judge(key string, count int) judgement {
	if key == CountRuntimeErrors { // raised errors print whatever was logged
		return judgement{counted: true, floor: rl.unfinished}
	}
	if rl.none != "" {
		return judgement{none: rl.none}
	}
	counted, atLeast, absent := rl.counted[key], false, rl.absent
	if logged, ok := rl.logged[key]; ok {
		counted, atLeast = logged || count > 0, !logged && count > 0
	}
	if key == CountLimitHits {
		counted, atLeast, absent = !rl.silenced || count > 0, rl.silenced, report.LoggingSilenced.Words()
	}
	if !counted {
		return judgement{absent: absent}
	}
	return judgement{counted: true, atLeast: atLeast, floor: rl.unfinished && !atLeast}
}

// Uncounted is the one phrase that stands for every count of an analysed run that counted nothing, the report's
// own (Analysis.Uncounted): "no torch output yet" of a run still going, "no torch output: nothing counted",
// "nothing compiled (torch.compile off: TORCHDYNAMO_DISABLE=1)"; "" where its counts stand, each as WordCounts
// words it.
func Uncounted(an *triage.Analysis) string { return an.Uncounted() }

// NotCounted is what each count of an analysed run that counted nothing reads in place of a number, "not counted
// (nothing compiled)", "not counted (no torch output)" (Analysis.NothingCountedWhy); "" where its counts stand.
// Word words each such count with it ("graph breaks not counted (nothing compiled)"), the TUI's list titles too.
func NotCounted(an *triage.Analysis) string { return notCounted(an.NothingCountedWhy()) }

func notCounted(why string) string {
	if why == "" {
		return ""
	}
	return "not counted (" + why + ")"
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
		if cw.Counted() || cw.Words != kinds+" "+cw.Value {
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

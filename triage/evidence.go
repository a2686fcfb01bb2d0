package triage

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
)

// ReportEvidence is what a report's inputs showed, whatever records they held: the verdict rests on it. A clean
// run prints no graph-break or recompile record, so "nothing found" means something only when the inputs show
// that torch ran and that breaks and recompiles were being logged.
type ReportEvidence struct {
	TorchSeen   bool     `json:"torch_seen"`
	TorchSeenBy []string `json:"torch_seen_by"` // what showed it: "torch log lines", "torch.compile records", "TORCH_TRACE", "a traceback through torch", "probe"
	// Logs are the TORCH_LOGS names/artifacts that were on: from the run's TORCH_LOGS when LogsFrom is "run",
	// else inferred from the tags and records present ("inferred"); "none" when nothing says.
	Logs              []string `json:"logs"`
	LogsFrom          string   `json:"logs_from"`
	GraphBreaksLogged bool     `json:"graph_breaks_logged"`
	RecompilesLogged  bool     `json:"recompiles_logged"`
	// CompileOff says what turned torch.compile off in the run ("TORCHDYNAMO_DISABLE=1: the eager preset",
	// "torch._dynamo.config.disable"), "" when nothing did: then nothing compiled, so nothing could break or
	// recompile.
	CompileOff string `json:"compile_off,omitempty"`
	// NoFrameCompiled: the probe saw every process it recorded compile no frame (its counters hold none) and the
	// inputs hold no compile record: no torch.compile call was reached, or set_stance("force_eager") kept them eager.
	NoFrameCompiled bool `json:"no_frame_compiled,omitempty"`
	// NoGraphCompiled says that Dynamo compiled frames but no graph ("Dynamo compiled 52 frames in 2 processes but
	// no graph (the probes counted none)"), "" otherwise: no op of the program ran compiled, so no break or
	// recompile inside its code could show, whatever was logged around it (noGraphCompiled).
	NoGraphCompiled string `json:"no_graph_compiled,omitempty"`
	// LogsRejected: torch rejected the TORCH_LOGS value at import ("Invalid log settings"): none of its names was
	// on, whatever Logs says was asked for.
	LogsRejected bool `json:"logs_rejected,omitempty"`
	// LogSilenced says which process counted graph breaks (the probe) that its log does not show although
	// graph_breaks was on ("the process counted 1 graph break its log does not show"): the program silenced
	// torch's logging, or its stderr was not captured. Then no count of the log stands (GraphBreaksLogged,
	// RecompilesLogged and CudagraphSkipsLogged are false), "" otherwise.
	LogSilenced string `json:"log_silenced,omitempty"`
	// CudagraphSkipsLogged: a CUDA-graph skip would have printed (Logged.CudagraphSkips for the TORCH_LOGS and
	// torch version known), or one did; a skip count of 0 means none only then.
	CudagraphSkipsLogged bool `json:"cudagraph_skips_logged"`
	// CudagraphPartitionsLogged: torch output was seen and a non-cudagraphable partition would have printed
	// (TORCH_LOGS cudagraphs, or one did) and no graph came from the FX graph cache, which prints none
	// (Analysis.PartitionsHidden); CudagraphRerecordsLogged the same for re-recordings, which the cache does not
	// hide. Only then does a count of 0 mean none; the text report's "not logged" rests on the same test (set by
	// AnalyzeRun).
	CudagraphPartitionsLogged bool  `json:"cudagraph_partitions_logged"`
	CudagraphRerecordsLogged  bool  `json:"cudagraph_rerecords_logged"`
	Ranks                     []int `json:"ranks"`
	// Torchrun: torchrun's launcher logged in the input: a job of several processes, even where no line carries
	// a rank prefix (ranks that print nothing torch-like show none).
	Torchrun bool `json:"torchrun"`
	// ResumeBreaks: where graph_breaks was not logged, the breaks that frames Dynamo resumed after one show
	// (a recompile or limit hit of torch_dynamo_resume_in_<fn>_at_<line>): at least these breaks happened
	ResumeBreaks []ResumeBreak `json:"resume_breaks,omitempty"`
	// Processes: how many processes wrote torch log lines without a rank prefix (glog's pid; 0 when none did,
	// counted up to 64): two or more are several processes that no line says the rank of.
	Processes int      `json:"processes"`
	Inputs    []string `json:"inputs"`
	Partial   bool     `json:"partial"`
	// ReadOnce: the paths not read because another input holds what they hold (AliasesText words them)
	ReadOnce       []ReadOnce `json:"read_once,omitempty"`
	PartialReasons []string   `json:"partial_reasons,omitempty"` // what looks cut (Report.PartialReasons)
}

// Logged says which kinds a TORCH_LOGS value makes PyTorch print (torch-log-formats.md §1): limit hits and fatal
// errors always print; breaks need graph_breaks or +dynamo; recompile records need recompiles or
// recompiles_verbose. CUDA-graph skips all come from one W-level emitter: from 2.11 under the cudagraphs artifact,
// which is on by default, so they print under any TORCH_LOGS (gpu-cuda-graphs-2.11.md §2: g02 and g13b show their
// skip under every preset, no TORCH_LOGS included; 2.14 the same, torch-log-formats.md §6); 2.6 used perf_hints,
// off by default, so they need perf_hints or cudagraphs there — and, not documented, for 2.7–2.10 and an unknown
// version too. A count of a kind that was not logged is 0 and means nothing.
type Logged struct {
	GraphBreaks    bool `json:"graph_breaks"`
	Recompiles     bool `json:"recompiles"`
	CudagraphSkips bool `json:"cudagraph_skips"`
}

// LoggedBy reads a TORCH_LOGS value ("graph_breaks,recompiles"; "" for none) for a torch version ("" unknown).
func LoggedBy(torchLogs, torchVersion string) Logged {
	names := LogNames(torchLogs)
	has := func(n string) bool { return slices.Contains(names, n) }
	all := has("all")
	return Logged{
		GraphBreaks:    all || has("graph_breaks") || has("+dynamo"),
		Recompiles:     all || has("recompiles") || has("recompiles_verbose"),
		CudagraphSkips: all || has("cudagraphs") || has("perf_hints") || logparse.TorchVersionAtLeast(torchVersion, 2, 11),
	}
}

// SameLogNames reports two TORCH_LOGS values with the same names in any order.
func SameLogNames(a, b string) bool {
	x, y := LogNames(a), LogNames(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// LogNames splits a TORCH_LOGS value into its names, without "+" except on "+dynamo" (whose level matters).
func LogNames(torchLogs string) []string {
	var out []string
	for _, n := range strings.Split(torchLogs, ",") {
		n = strings.TrimSpace(n)
		if n != "+dynamo" {
			n = strings.TrimLeft(n, "+-")
		}
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// facts is what the aggregator saw beyond the counts (under its lock).
type facts struct {
	lines        logparse.Facts
	records      bool // a torch.compile record (break, recompile, limit hit, skip, partition, compile error…)
	traceback    bool // a traceback with a frame in torch
	warning      bool // a Python warning raised in a torch file (torch/_inductor/…: UserWarning: …)
	torchVersion string
}

// AddFacts takes what one input's lines showed beyond their records.
func (a *Aggregator) AddFacts(f logparse.Facts) {
	a.mu.Lock()
	a.facts.lines.Merge(f)
	if f.Prefixed && f.Input != "" {
		a.prefixed[f.Input] = true
	}
	if f.CutLine {
		a.noteCut("its last torch log line stops mid-line: still being written, or cut")
	}
	a.mu.Unlock()
}

// noteFacts learns from one record (under the lock).
func (a *Aggregator) noteFacts(r *logparse.Record) {
	switch r.Kind {
	case logparse.KindOther, logparse.KindStack, logparse.KindShapeEnv: // a dynamic-log line is a torch log line, no torch.compile record
	case logparse.KindWarning:
		if w := r.Warning; w != nil && torchFile(w.File) {
			a.facts.warning = true
		}
	case logparse.KindRuntimeError, logparse.KindException:
		for _, f := range r.Error.Frames {
			if torchFile(f.File) {
				a.facts.traceback = true
			}
			if v, ok := versionInEntryPoint(f.Code); ok && a.facts.torchVersion == "" {
				a.facts.torchVersion = v
			}
		}
	default:
		a.facts.records = true
	}
}

// torchFile: a source file of torch itself (".../site-packages/torch/_inductor/compile_fx.py", "torch/_dynamo/…").
func torchFile(path string) bool {
	return strings.Contains(path, "/torch/") || strings.HasPrefix(path, "torch/")
}

var entryPointRE = regexp.MustCompile(`load_entry_point\('torch==([0-9][^']*)'`)

// versionInEntryPoint reads the version from a launcher frame: load_entry_point('torch==2.6.0+debian', …).
func versionInEntryPoint(code string) (string, bool) {
	if !strings.Contains(code, "torch==") {
		return "", false
	}
	m := entryPointRE.FindStringSubmatch(code)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// evidence builds the report's evidence from what the inputs showed (no run facts yet: Analyze adds those).
func (a *Aggregator) evidence(rep *Report) ReportEvidence {
	f := a.facts
	ev := ReportEvidence{Ranks: rep.Ranks, Inputs: rep.Inputs, TorchSeenBy: []string{}, Logs: []string{}, LogsFrom: "none"}
	add := func(ok bool, by string) {
		if ok {
			ev.TorchSeen = true
			ev.TorchSeenBy = append(ev.TorchSeenBy, by)
		}
	}
	add(f.lines.TorchLog, "torch log lines")
	add(f.records, "torch.compile records")
	add(f.lines.Trace, "TORCH_TRACE")
	add(f.traceback, "a traceback through torch")
	add(f.lines.TorchMessage && !f.traceback, "a torch exception message")
	add(f.warning, "a torch warning")
	for _, art := range sortedStrings(f.lines.Artifacts) {
		ev.Logs = append(ev.Logs, art)
	}
	// the dynamic log's lines, unless Dynamo's own INFO or DEBUG lines say they may be dynamo's (which includes them)
	if f.lines.Dynamic && !f.lines.DynamoDebug && !f.lines.DynamoInfo && !slices.Contains(ev.Logs, "dynamic") {
		ev.Logs = append(ev.Logs, "dynamic")
		slices.Sort(ev.Logs)
	}
	if f.lines.DynamoDebug {
		ev.Logs = append(ev.Logs, "+dynamo")
	}
	if len(ev.Logs) > 0 {
		ev.LogsFrom = "inferred"
	}
	has := func(n string) bool { return slices.Contains(ev.Logs, n) }
	ev.GraphBreaksLogged = f.lines.Trace || has("graph_breaks") || has("+dynamo") || graphBreaksLogged(rep)
	ev.RecompilesLogged = f.lines.Trace || has("recompiles") || has("recompiles_verbose") || rep.Counts.Recompiles > 0
	ev.CudagraphSkipsLogged = skipsLogged(ev, rep, "")
	ev.Partial, ev.PartialReasons = rep.Partial, rep.PartialReasons
	ev.Torchrun, ev.ReadOnce, ev.Processes = f.lines.Torchrun, a.readOnce, len(f.lines.PIDs)
	return ev
}

// skipsLogged: the TORCH_LOGS of ev (the run's, or inferred) and the torch version (the run's, else the report's)
// make CUDA-graph skips print, or the inputs show one. A trace is no sign: it records only the skips decided at
// compile time (gpu-cuda-graphs-2.11.md §2).
func skipsLogged(ev ReportEvidence, rep *Report, runTorch string) bool {
	v := runTorch
	if rep.TorchVersion != nil && *rep.TorchVersion != "" {
		v = *rep.TorchVersion
	}
	return ev.TorchSeen && (LoggedBy(strings.Join(ev.Logs, ","), v).CudagraphSkips || rep.Counts.CudagraphSkips > 0)
}

// SkipsNotLogged says why CUDA-graph skips were not logged (Evidence.CudagraphSkipsLogged false); "" when they were.
func (a *Analysis) SkipsNotLogged() string {
	if a.Evidence.CudagraphSkipsLogged {
		return ""
	}
	v := ""
	if a.Run != nil {
		v = a.Run.TorchVersion
	}
	if a.Report.TorchVersion != nil && *a.Report.TorchVersion != "" {
		v = *a.Report.TorchVersion
	}
	if v != "" {
		return "torch " + v + " prints them only with TORCH_LOGS perf_hints or cudagraphs"
	}
	return "the torch version is not known: 2.11 and later print them under any TORCH_LOGS, 2.6 only with perf_hints or cudagraphs"
}

// NothingCompiled says why nothing compiled ("torch.compile was off (TORCHDYNAMO_DISABLE=1): nothing compiled",
// "no frame was compiled (the probe counted none)"), "" when something did or nothing says: then nothing could
// break or recompile, whatever the logs show.
func (ev ReportEvidence) NothingCompiled() string {
	switch {
	case ev.CompileOff != "":
		return "torch.compile was off (" + ev.CompileOff + "): nothing compiled"
	case ev.NoFrameCompiled:
		return "no frame was compiled (the probe counted none)"
	}
	return ""
}

// NothingCompiledShort is NothingCompiled in a few words, for a side of a comparison.
func (ev ReportEvidence) NothingCompiledShort() string {
	if ev.CompileOff != "" {
		return "torch.compile off: " + ev.CompileOff
	}
	return "no frame compiled, by the probe"
}

// BreaksCounted reports whether the graph-break count stands: some were seen, or they were logged (a 0 of a kind
// that was not logged would claim there were none). RecompilesCounted is the same for recompiles.
func (a *Analysis) BreaksCounted() bool {
	return a.Report.Counts.GraphBreaks > 0 || a.Evidence.GraphBreaksLogged
}

func (a *Analysis) RecompilesCounted() bool {
	return a.Report.Counts.Recompiles > 0 || a.Evidence.RecompilesLogged
}

// BreaksFloor reports a graph-break count that is a floor: some printed while graph_breaks was off (a
// Tensor.item() warning prints without it, other breaks do not). RecompilesFloor is the same for recompiles.
func (a *Analysis) BreaksFloor() bool {
	return a.Report.Counts.GraphBreaks > 0 && !a.Evidence.GraphBreaksLogged
}

func (a *Analysis) RecompilesFloor() bool {
	return a.Report.Counts.Recompiles > 0 && !a.Evidence.RecompilesLogged
}

// BreaksText words the graph-break count for the counts lines: "graph breaks 3 distinct (7 records)", or "graph
// breaks not logged" (BreaksCounted; BreaksValue).
func (a *Analysis) BreaksText() string { return "graph breaks " + a.BreaksValue() }

// BreaksValue is the words of the graph-break count after its label (the Markdown table's cell): "3 distinct (7
// records)"; where no count stands, "not logged" (the run's TORCH_LOGS left graph_breaks out) or "unknown (no sign
// graph_breaks was on)" (logs alone).
func (a *Analysis) BreaksValue() string {
	c := a.Report.Counts
	switch {
	case !a.BreaksCounted():
		return unloggedValue(a.Evidence.LoggingOf(false), "graph_breaks")
	case a.BreaksFloor():
		return fmt.Sprintf("at least %d distinct (%s; graph_breaks %s)", c.GraphBreaks, Plural(c.GraphBreakRecords, "record"), a.Evidence.floorWords())
	}
	return a.floorIfUnfinished(fmt.Sprintf("%d distinct (%s)", c.GraphBreaks, a.floorIfUnfinished(Plural(c.GraphBreakRecords, "record"))))
}

// CountsAreFloors says every count is a floor ("≥3"): the run did not complete (Unfinished: stopped, still running,
// a process died), and what it would have printed after is not in the input. The report's counts (text, Markdown,
// per rank), the bring-up log and the TUI (story.RulesOf) all floor them by it.
func (a *Analysis) CountsAreFloors() bool { return a.Unfinished() != "" }

// floorIfUnfinished is count as a floor where CountsAreFloors.
func (a *Analysis) floorIfUnfinished(count string) string {
	if a.CountsAreFloors() {
		return Floor(count)
	}
	return count
}

// floorWords say why a count of what printed is a floor: "not logged", or "not all in the log" (silenced).
func (ev ReportEvidence) floorWords() string {
	if ev.LogSilenced != "" {
		return "not all in the log"
	}
	return "not logged"
}

func unloggedValue(lg Logging, name string) string {
	if lg != LoggingUnknown {
		return lg.Words()
	}
	return lg.Words() + " (no sign " + name + " was on)"
}

// RecompilesText words the recompile count the same way: "recompiles 7", or "recompiles not logged".
func (a *Analysis) RecompilesText() string { return "recompiles " + a.RecompilesValue() }

// RecompilesValue is the recompile count's words after its label, as BreaksValue.
func (a *Analysis) RecompilesValue() string {
	switch n := a.Report.Counts.Recompiles; {
	case !a.RecompilesCounted():
		return unloggedValue(a.Evidence.LoggingOf(false), "recompiles")
	case a.RecompilesFloor():
		return fmt.Sprintf("at least %d (recompiles %s)", n, a.Evidence.floorWords())
	default:
		return a.floorIfUnfinished(strconv.Itoa(n))
	}
}

// UncountedWhy says why the count of graph breaks or recompiles is no evidence ("recompiles were not logged
// (TORCH_LOGS)"; for logs alone, which show no record of them and no line tagged with their name, "no sign
// recompiles were logged (TORCH_LOGS)"), "" when it stands: the TUI's empty pane.
func (a *Analysis) UncountedWhy(k Kind) string {
	counted, what := a.BreaksCounted(), "graph breaks"
	if k == KindRecompile {
		counted, what = a.RecompilesCounted(), "recompiles"
	}
	if counted {
		return ""
	}
	lg := a.Evidence.LoggingOf(false)
	return lg.Absent(what) + lg.Cause() + a.resumeHint(k)
}

// LimitHitsValue is the recompile-limit hit count's words after its label: a limit hit prints whatever TORCH_LOGS
// says, but not through a log the program silenced ("not in the log"; a count of those that printed is a floor).
func (a *Analysis) LimitHitsValue() string {
	n := a.Report.Counts.RecompileLimitHits
	switch {
	case a.Evidence.LogSilenced == "":
		return a.floorIfUnfinished(strconv.Itoa(n))
	case n == 0:
		return LoggingSilenced.Words()
	}
	return "at least " + strconv.Itoa(n)
}

// CudagraphSkipsText words the skip count of a report: "cudagraph skips 2", or "cudagraph skips not logged"
// where a zero would be no evidence.
func (a *Analysis) CudagraphSkipsText() string { return "cudagraph skips " + a.CudagraphSkipsValue() }

// CudagraphSkipsValue is the skip count's words after its label: for logs alone where a zero would be no
// evidence, "unknown" (SkipsNotLogged says why).
func (a *Analysis) CudagraphSkipsValue() string {
	if a.SkipsCounted() {
		return a.floorIfUnfinished(strconv.Itoa(a.Report.Counts.CudagraphSkips))
	}
	return a.Evidence.LoggingOf(false).Words()
}

// SkipsCounted reports whether the CUDA-graph skip count is evidence: skips were seen, or they could print.
func (a *Analysis) SkipsCounted() bool {
	return a.Report.Counts.CudagraphSkips > 0 || a.Evidence.CudagraphSkipsLogged
}

// logFormat words the era of the records' format: "2.9+" when it reaches the newest format known (later
// versions may print the same), "2.3–2.5" otherwise, "" when no record shows it. A guess, never a version.
// logFormatOf is the inputs' log format: all's merged (logFormat), or, where two inputs show formats no torch version
// shares (logs of two versions given together), "mixed: " and each distinct one ("mixed: 2.6–2.7, 2.9+").
func logFormatOf(all logparse.Era, inputs map[string]logparse.Era) string {
	var eras []logparse.Era
	for _, e := range inputs {
		eras = append(eras, e)
	}
	sort.Slice(eras, func(i, j int) bool { // by the lowest version, then the highest: one order, not the map's
		alo, ahi, _ := eras[i].Bounds()
		blo, bhi, _ := eras[j].Bounds()
		return alo < blo || alo == blo && ahi < bhi
	})
	var names []string
	disjoint := false
	for i, e := range eras {
		lo, hi, _ := e.Bounds()
		for _, o := range eras[:i] {
			if olo, ohi, _ := o.Bounds(); lo > ohi || hi < olo {
				disjoint = true
			}
		}
		if n := logFormat(e); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if !disjoint {
		return logFormat(all)
	}
	return "mixed: " + strings.Join(names, ", ")
}

// LogFormatWords words a report's log format for a header: "log format of 2.9+", or for inputs of different versions
// "log formats of 2.6, 2.9+: inputs of different torch versions"; of is what comes before the versions ("of ").
func LogFormatWords(lf, of string) string {
	if rest, ok := strings.CutPrefix(lf, "mixed: "); ok {
		return "log formats " + of + rest + ": inputs of different torch versions"
	}
	return "log format " + of + lf
}

func logFormat(e logparse.Era) string {
	lo, hi, ok := e.Bounds()
	if !ok {
		return ""
	}
	if hi >= logparse.NewestMinor {
		return "2." + strconv.Itoa(lo) + "+"
	}
	return e.String()
}

// ResumeBreak is a graph break a resume function shows: Dynamo resumes after a break at line Line of Function in
// a frame it names torch_dynamo_resume_in_<Function>_at_<Line>.
type ResumeBreak struct {
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int    `json:"line"`
}

// resumeBreaks lists, sorted, the distinct breaks the resume functions of recompiles and limit hits show.
func resumeBreaks(rep *Report, snap *detailSnap) []ResumeBreak {
	seen := map[ResumeBreak]bool{}
	if snap != nil {
		for _, g := range snap.groups {
			if g.key.resume > 0 {
				seen[ResumeBreak{Function: g.key.fn, File: g.key.file, Line: g.key.resume}] = true
			}
		}
	}
	for _, l := range rep.RecompileLimitHits {
		if fn, line := FoldFunction(l.Function); line > 0 {
			seen[ResumeBreak{Function: fn, File: l.File, Line: line}] = true
		}
	}
	out := make([]ResumeBreak, 0, len(seen))
	for b := range seen {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// resumeText words the breaks resume functions show: "f at r01_branch_print.py:6", the first few.
func resumeText(bs []ResumeBreak) string {
	var parts []string
	for i, b := range bs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(bs)-i))
			break
		}
		parts = append(parts, b.Function+" at "+siteText(b.File, b.Line))
	}
	return strings.Join(parts, ", ")
}

// resumeHint follows why graph breaks were not counted with the breaks resume functions show ("; a resume
// function shows one at r01_branch_print.py:6"), "" for other kinds or none.
func (a *Analysis) resumeHint(k Kind) string {
	rb := a.Evidence.ResumeBreaks
	switch {
	case k != KindGraphBreak || len(rb) == 0:
		return ""
	case len(rb) == 1:
		return "; a resume function shows one at " + siteText(rb[0].File, rb[0].Line)
	}
	return "; resume functions show " + strconv.Itoa(len(rb)) + " (" + resumeText(rb) + ")"
}

package report

import (
	"regexp"
	"slices"
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
	ReadOnce []ReadOnce `json:"read_once,omitempty"`
	// Skipped: the entries of the named directories not read, and why (a FIFO would block, a device never ends)
	Skipped        []Skipped `json:"skipped,omitempty"`
	PartialReasons []string  `json:"partial_reasons,omitempty"` // what looks cut (Report.PartialReasons)
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
		a.noteCut(&logparse.Record{Input: f.Input, Cut: "its last torch log line stops mid-line: still being written, or cut"})
	}
	if f.Changed {
		a.noteCut(&logparse.Record{Input: f.Input, Cut: "the file was truncated or rewritten while being read: what was read is counted"})
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
	add(f.traceback || f.lines.TorchFrames, "a traceback through torch")
	add(f.lines.TorchMessage && !f.traceback, "a torch exception message")
	add(f.warning, "a torch warning")
	for _, art := range SortedStrings(f.lines.Artifacts) {
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
	ev.Torchrun, ev.ReadOnce, ev.Skipped, ev.Processes = f.lines.Torchrun, a.readOnce, a.skipped, len(f.lines.PIDs)
	return ev
}

// askedWords says why the TORCH_LOGS names (joined by "or") are thought off: a run's own TORCH_LOGS did not ask
// for them; of logs alone, no line carries their tag (the TORCH_LOGS they ran with is not known).
func (ev ReportEvidence) AskedWords(names string) string {
	if ev.LogsFrom == "run" {
		return "TORCH_LOGS did not ask for them"
	}
	return "no line tagged " + names
}

// graphBreaksLogged: a graph_breaks record (not only the W-level Tensor.item() warning, which prints without
// TORCH_LOGS) shows that graph_breaks was logged.
func graphBreaksLogged(rep *Report) bool {
	for _, b := range rep.GraphBreaks {
		if !b.ItemOnly {
			return true
		}
	}
	return false
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

// ResumeBreak is a graph break a resume function shows: Dynamo resumes after a break at line Line of Function in
// a frame it names torch_dynamo_resume_in_<Function>_at_<Line>.
type ResumeBreak struct {
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int    `json:"line"`
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

// cudagraphsOn: the TORCH_LOGS known or inferred for the inputs include cudagraphs.
func (ev ReportEvidence) CudagraphsOn() bool {
	return slices.Contains(ev.Logs, "cudagraphs") || slices.Contains(ev.Logs, "all")
}

// floorWords say why a count of what printed is a floor: "not logged", or "not all in the log" (silenced).
func (ev ReportEvidence) FloorWords() string {
	if ev.LogSilenced != "" {
		return "not all in the log"
	}
	return "not logged"
}

package playbooks

import (
	"fmt"
	"strconv"
	"strings"
)

// Step is one step of the diagnose-compile-regression checklist.
type Step struct {
	N         int    // 1-based position
	ID        string // stable key: baseline, breaks, recompiles, cudagraphs, ranks, steady
	Title     string
	Goal      string
	Preset    string // preset that runs this step
	TorchLogs string // what that preset puts in TORCH_LOGS (or other env), for display
	When      string // when the step applies
	DoneWhen  string
	StopWhen  string // when to stop optimising and change program structure instead
}

var checklist = []Step{
	{
		N: 1, ID: "baseline", Title: "Eager baseline vs compiled",
		Goal:      "Know whether compile pays off at all: time the same script eager and compiled.",
		Preset:    "eager",
		TorchLogs: "TORCHDYNAMO_DISABLE=1 (eager run), then the compiled run",
		When:      "Always, first.",
		DoneWhen:  "Both step times are measured after warm-up, compile time excluded.",
		StopWhen:  "Compiled is less than 5% faster than eager even after the later steps: ship eager (team rule).",
	},
	{
		N: 2, ID: "breaks", Title: "Find graph breaks and recompiles",
		Goal:      "List every distinct graph break and recompile, with a playbook for each.",
		Preset:    "breaks",
		TorchLogs: "graph_breaks,recompiles",
		When:      "Always, after the baseline.",
		DoneWhen:  "No unexpected graph breaks remain (by-design ones are marked expected).",
		StopWhen:  "Breaks come from code you cannot change (third-party, C extensions): compile a smaller region around it instead.",
	},
	{
		N: 3, ID: "recompiles", Title: "Explain the recompiles",
		Goal:      "For each recompile, the failing guard and what input changed.",
		Preset:    "recompiles",
		TorchLogs: "recompiles_verbose,graph_breaks,dynamic (preset guards for every guard)",
		When:      "When the run recompiles more than automatic dynamic explains.",
		DoneWhen:  "No unexpected recompiles after warm-up; no recompile-limit hit.",
		StopWhen:  "Variants are inherent (modes, a few shapes) and bounded: accept them and warm each one up.",
	},
	{
		N: 4, ID: "cudagraphs", Title: "Check CUDA graphs",
		Goal:      "Every graph that should use CUDA graphs does.",
		Preset:    "cudagraphs",
		TorchLogs: "perf_hints,cudagraphs,graph_breaks,recompiles, caches off (TORCHINDUCTOR_FORCE_DISABLE_CACHES=1)",
		When:      "When mode=\"reduce-overhead\" is used or CUDA-graph skips or partitions appear.",
		DoneWhen:  "No 'skipping cudagraph' lines, no non-cudagraphable partitions (what torch 2.9+ logs in place of some skips), at most 3 re-recordings.",
		StopWhen: "The cause is structural (CPU work, data-dependent shapes): leave that work outside CUDA graphs " +
			"(torch 2.9+ partitions around it by default; earlier versions skip the whole graph).",
	},
	{
		N: 5, ID: "ranks", Title: "Check that ranks agree",
		Goal:      "All ranks compile the same graphs with the same settings.",
		Preset:    "distributed",
		TorchLogs: "graph_breaks,recompiles,ddp_graphs per rank, plus TORCH_TRACE",
		When:      "When more than one rank runs.",
		DoneWhen:  "Per-rank breaks, recompiles and config are identical.",
		StopWhen:  "Ranks must differ by design (pipeline stages): compile each stage separately and keep collectives outside.",
	},
	{
		N: 6, ID: "steady", Title: "Confirm the steady state",
		Goal:      "A rerun compiles nothing new after warm-up.",
		Preset:    "breaks",
		TorchLogs: "graph_breaks,recompiles",
		When:      "Always, last.",
		DoneWhen:  "The rerun shows no new breaks, recompiles or skips.",
		StopWhen:  "Something new appears on every rerun: the input stream itself varies; restructure what is compiled.",
	},
}

// CrashStep is proposed before every step while a process of the run died (State.Crash): a dead process compiles
// nothing more, so no step can show what it needs. It is not one of the six (N is 0).
var CrashStep = Step{
	ID: "crash", Title: "Fix the crash first",
	Goal:     "The run reaches its end: a process that died compiled and ran nothing after that point.",
	When:     "When a process died: a runtime error, a compile error, or a non-zero exit.",
	DoneWhen: "Every process exits 0; then the checklist resumes.",
	StopWhen: "The crash happens eager too (preset eager): it is the program's, not compile's; fix it before triaging compile.",
}

// LogsStep is proposed before every step while torch rejected the run's TORCH_LOGS at import (State.LogsRejected):
// the program never ran, so nothing compiled and nothing was logged. It is not one of the six (N is 0).
var LogsStep = Step{
	ID: "torch-logs", Title: "Fix TORCH_LOGS first",
	Goal:     "Torch accepts the TORCH_LOGS setting: it rejected it when imported, so the program never ran.",
	When:     "When torch raised reading TORCH_LOGS at import (an unknown name, a dotted name of no module).",
	DoneWhen: "The run gets past import torch and prints torch output; then the checklist resumes.",
	StopWhen: "A name you need is not in the list torch prints: this torch version does not have it; use a preset without it.",
}

// FailedStep is proposed before every step while the run failed without a process dying of an error torchtriage
// recognises (State.Failed: a non-zero exit, a signal it did not send): no crash to fix, but what the run never
// reached no step can show. It is not one of the six (N is 0).
var FailedStep = Step{
	ID: "failed", Title: "Find why the run failed first",
	Goal:     "The run reaches its end: it exited non-zero or was killed, so what it did not reach is not known.",
	When:     "When the run exited non-zero or was killed by a signal torchtriage did not send, with no error it recognises.",
	DoneWhen: "The run exits 0; then the checklist resumes.",
	StopWhen: "It fails eager too (preset eager): it is the program's exit, not compile's.",
}

// StoppedStep is proposed before every step while torchtriage stopped the run (its timeout, a cancel) before it
// finished (State.StoppedByTool): what it never reached no step can show. It is not one
// of the six (N is 0).
var StoppedStep = Step{
	ID: "stopped", Title: "Let the run finish first",
	Goal:     "The run reaches its end: torchtriage stopped it, so what it had not reached is not known.",
	When:     "When torchtriage stopped the run (--timeout, a cancel, quitting) before it finished.",
	DoneWhen: "A run of the same command ends on its own; then the checklist resumes.",
	StopWhen: "It hangs whatever the time allowed (a stall with nothing compiling): find where each rank waits (the stack dump, s).",
}

// EvidenceStep is proposed before the six while the run printed no torch output at all (State.NoTorch): no step
// can show anything without it. It is not one of the six (N is 0).
var EvidenceStep = Step{
	ID: "evidence", Title: "Get torch output first",
	Goal:     "The run shows torch at work: a torch log line, a compile record, a trace or a traceback through torch.",
	When:     "When the run printed nothing from torch.",
	DoneWhen: "The report's evidence says torch was seen; then the checklist resumes.",
	StopWhen: "The command never reaches torch.compile (another script, an early exit, TORCH_LOGS not in its environment): fix the command first.",
}

// Phrase is the step's title inside a sentence: "fix the crash first".
func (s Step) Phrase() string {
	if s.Title == "" {
		return ""
	}
	return strings.ToLower(s.Title[:1]) + s.Title[1:]
}

// firstStep is a step proposed before the six (N 0) while its state holds. firstSteps is the one list of them:
// NextStep proposes from it, Why words from it, so the two cannot name different steps, orders or reasons.
type firstStep struct {
	Step
	// why says what in the State makes the step come first, "" while nothing does
	why func(State) string
	// afterWork: work a step of the six found comes before it (the tool's stop: no crash to fix, what it found stands)
	afterWork bool
}

// firstSteps are the steps before the six, in the order they come: the first whose why is set is proposed.
var firstSteps = []firstStep{
	{LogsStep, func(s State) string { return s.LogsRejected }, false},
	{CrashStep, func(s State) string { return s.Crash }, false},
	{FailedStep, func(s State) string { return s.Failed }, false},
	{StoppedStep, stoppedWhy, true},
	{EvidenceStep, func(s State) string { return s.NoTorch }, false},
}

// stoppedWhy is how the run the tool stopped fell short (State.Unfinished), "" when the tool did not stop it.
func stoppedWhy(s State) string {
	if !s.StoppedByTool {
		return ""
	}
	return orDefault(s.Unfinished, "stopped by torchtriage")
}

// Why is what makes a step that comes before the six (N 0: LogsStep, CrashStep, FailedStep, StoppedStep,
// EvidenceStep) the next one, "" for the six and for a step nothing in the State puts first.
func (s State) Why(step Step) string {
	for _, f := range firstSteps {
		if f.ID == step.ID {
			return f.why(s)
		}
	}
	return ""
}

// Checklist returns the six steps in order (a copy).
func Checklist() []Step { return append([]Step(nil), checklist...) }

// State is what the caller knows, with the evidence for it. A step is done only when a run that could show it did;
// what no run has shown yet is "not run", never done.
type State struct {
	Ranks int // processes of the run (every source: prefixes, launcher, probe)
	// Baseline: BaselineMeasured when eager and compiled step times were compared (a metric); BaselineWhy says
	// why it is not ("inconclusive: give --metric …", or the estimate from whole-run wall times less the compile
	// time the probe measured, which hold start-up, import and warm-up).
	BaselineMeasured bool
	BaselineWhy      string
	// BreaksLogged, RecompilesLogged: the run's logs show breaks / recompiles were being logged. LogsKnown: the
	// run's TORCH_LOGS is known, so what they do not show was not logged; of logs alone nothing says which names
	// were on (a step not run then says "no sign … logged").
	LogsKnown        bool
	BreaksLogged     bool
	RecompilesLogged bool
	UnexpectedBreaks int
	// FullgraphRefused: of UnexpectedBreaks, the breaks fullgraph=True refused (compile errors, not logged breaks);
	// SilentFailures: of them, processes whose probe counted frames that did not compile, which the log does not show
	FullgraphRefused     int
	SilentFailures       int
	UnexpectedRecompiles int
	// CUDA graphs: CPUOnly when the probe saw no GPU; UsesCUDAGraphs when the run asked for them (reduce-overhead,
	// or CUDA-graph records show it); CudagraphsLogged when the cudagraphs log was on; the skips,
	// non-cudagraphable partitions and re-recordings shown (more than RerecordsFew re-recordings need work).
	CPUOnly             bool
	UsesCUDAGraphs      bool
	CudagraphsLogged    bool
	CudagraphSkips      int
	CudagraphPartitions int
	CudagraphRerecords  int
	// CudagraphWarnings: CUDA-graph warnings whose playbook says fix (pending backwards: the fast path is missed)
	CudagraphWarnings int
	RanksAgree        bool
	// RanksNotCompared says why the ranks' agreement is not known ("the run did not complete (…)"), "" when they
	// were compared: neither agreement nor a difference then.
	RanksNotCompared string
	// RanksDiffer says how ranks that do not agree differ, where not in what they compiled ("settings differ
	// between ranks: …"); "" for the default "ranks compile differently".
	RanksDiffer string
	SteadyRerun bool // a rerun of the same command compiled nothing new
	// Rerun says which rerun of the same command the session holds ("run 3 reran run 1's command"), "" when none:
	// a rerun that is not SteadyRerun is the steady step's work, not a rerun still to make
	Rerun string
	// Unfinished says how the run fell short of its end ("exited with code 1", "stopped by torchtriage (timed
	// out)", "still running"), "" when it ran to completion or nothing shows otherwise. What such a run did not
	// show proves nothing (a run that died at its first collective may not have compiled what a step needs): no
	// step but the baseline, which clean runs measure, is done on it; work it found is still work.
	Unfinished string
	// StoppedByTool: torchtriage stopped the run (its timeout, a cancel, quitting) before it finished (StoppedStep,
	// whose Why is Unfinished)
	StoppedByTool bool
	// LogsRejected words how torch rejected the run's TORCH_LOGS at import, "" when it did not: fixing the setting
	// comes first (LogsStep), before the crash it looks like.
	LogsRejected string
	// Crash words what killed a process of the run, with its playbook ("2 processes died of a runtime error:
	// DistBackendError: … [dist-nccl-duplicate-gpu]"), "" when none died: fixing it comes first (CrashStep).
	Crash string
	// Failed says how the run failed without a process dying of a recognised error ("the run exited with code 3
	// without an error torchtriage recognises (see its stderr)"), "" otherwise: finding why comes first (FailedStep).
	Failed string
	// NoTorch says that a finished run printed no torch output at all ("" when it did, or while it runs): getting
	// some comes first (EvidenceStep).
	NoTorch string
	// NeedLogs: torch ran, but its graph breaks or recompiles were not shown to be logged: the run shows nothing
	// of them, so the breaks step (which logs them) comes before the others not run yet.
	NeedLogs bool
	// CompileOff says that nothing compiled ("torch.compile was off (TORCHDYNAMO_DISABLE=1): …"), "" when it was
	// on: a step that needs compiled output is not run on such a run, whatever its logs show.
	CompileOff string
	// LogSilenced says that the log lacks graph breaks a process counted although graph_breaks was on ("the log
	// lacks what the probe counted: …"), "" when it does not: no step is done on what such a log shows.
	LogSilenced string
}

// Step statuses.
const (
	StatusDone          = "done"
	StatusNeedsWork     = "needs work"
	StatusNotRun        = "not run yet"
	StatusNotApplicable = "not applicable"
)

// StepStatus is one step of the checklist with where it stands and why.
type StepStatus struct {
	Step
	Status string
	Why    string // for not applicable, not run and needs work: the reason, in words
}

// Progress says where every step stands:
//
//  1. baseline   done when BaselineMeasured; needs work when BaselineWhy says why not; else not run
//  2. breaks     needs work while UnexpectedBreaks > 0; else not run until BreaksLogged; else done
//  3. recompiles needs work while UnexpectedRecompiles > 0; else not run until RecompilesLogged; else done
//  4. cudagraphs not applicable on a CPU-only run or when no CUDA graphs were asked for (and the cudagraphs
//     log shows none); needs work while skips, partitions, more than RerecordsFew re-recordings or CUDA-graph
//     warnings to fix are shown;
//     done when the cudagraphs log was on; else not run
//  5. ranks      not applicable with one process; not run until breaks and recompiles were logged; needs work
//     while the ranks disagree; else done
//  6. steady     done when SteadyRerun; needs work when a Rerun is not steady; else not run (it needs a rerun)
//
// On a run that did not finish (Unfinished), steps 2–6 are never done (nor CUDA graphs "not asked for"): not run.
func Progress(s State) []StepStatus {
	st := func(i int, status, why string) StepStatus {
		return StepStatus{Step: checklist[i], Status: status, Why: why}
	}
	out := make([]StepStatus, 0, len(checklist))
	switch {
	case s.BaselineMeasured:
		out = append(out, st(0, StatusDone, ""))
	case s.BaselineWhy != "":
		out = append(out, st(0, StatusNeedsWork, s.BaselineWhy))
	default:
		out = append(out, st(0, StatusNotRun, "no eager run and compiled run to compare yet"))
	}
	notLogged := func(what string) string { // "graph breaks were not logged", "no sign graph breaks were logged"
		if s.LogsKnown {
			return what + " were not logged"
		}
		return "no sign " + what + " were logged"
	}
	breaksOff, recompilesOff := notLogged("graph breaks"), notLogged("recompiles")
	breaksOn, recompilesOn := s.BreaksLogged, s.RecompilesLogged
	switch {
	case s.CompileOff != "": // nothing compiled: nothing could show, logged or not
		breaksOff, recompilesOff, breaksOn, recompilesOn = s.CompileOff, s.CompileOff, false, false
	case s.LogSilenced != "": // logged, but what printed did not all reach the log
		breaksOff, recompilesOff, breaksOn, recompilesOn = s.LogSilenced, s.LogSilenced, false, false
	case s.NoTorch != "": // nothing of torch printed: TORCH_LOGS is not why nothing was logged
		breaksOff, recompilesOff, breaksOn, recompilesOn = s.NoTorch, s.NoTorch, false, false
	}
	breakWork := "unexpected graph breaks"
	if n := s.SilentFailures; n > 0 && n >= s.UnexpectedBreaks {
		breakWork = "compile failures the log does not show (the probe counted them in " + Plural(n, "process") + ")"
	}
	switch n := s.FullgraphRefused; {
	case n > 0 && n >= s.UnexpectedBreaks:
		breakWork = Plural(n, "graph break") + " fullgraph=True refused (a compile error, not a logged break)"
	case n > 0:
		breakWork += fmt.Sprintf(" (%d of them refused by fullgraph=True: %s)", n, map[bool]string{true: "a compile error", false: "compile errors"}[n == 1])
	}
	out = append(out, logged(st, 1, breaksOn, s.UnexpectedBreaks, breaksOff, breakWork))
	out = append(out, logged(st, 2, recompilesOn, s.UnexpectedRecompiles, recompilesOff,
		"recompiles beyond automatic dynamic"))
	switch work := cudagraphWork(s); {
	case s.CPUOnly:
		out = append(out, st(3, StatusNotApplicable, "CPU-only run: no CUDA graphs"))
	case s.CompileOff != "" && len(work) == 0:
		out = append(out, st(3, StatusNotRun, s.CompileOff))
	case len(work) > 0:
		out = append(out, st(3, StatusNeedsWork, JoinAnd(work)))
	case s.CudagraphsLogged && s.UsesCUDAGraphs:
		out = append(out, st(3, StatusDone, ""))
	case s.CudagraphsLogged:
		out = append(out, st(3, StatusNotApplicable, "no CUDA graphs asked for (mode=\"reduce-overhead\" not used)"))
	case s.LogsKnown:
		out = append(out, st(3, StatusNotRun, "the cudagraphs log was not on"))
	default:
		out = append(out, st(3, StatusNotRun, "no sign the cudagraphs log was on"))
	}
	switch {
	case s.Ranks <= 1:
		out = append(out, st(4, StatusNotApplicable, "one process: nothing to compare"))
	case s.CompileOff != "":
		out = append(out, st(4, StatusNotRun, s.CompileOff))
	case s.LogSilenced != "":
		out = append(out, st(4, StatusNotRun, s.LogSilenced))
	case !s.BreaksLogged || !s.RecompilesLogged:
		out = append(out, st(4, StatusNotRun, notLogged("graph breaks and recompiles per rank")))
	case s.RanksNotCompared != "":
		out = append(out, st(4, StatusNotRun, "not compared: "+s.RanksNotCompared))
	case !s.RanksAgree:
		out = append(out, st(4, StatusNeedsWork, orDefault(s.RanksDiffer, "ranks compile differently")))
	default:
		out = append(out, st(4, StatusDone, ""))
	}
	switch {
	case s.SteadyRerun:
		out = append(out, st(5, StatusDone, ""))
	case s.Rerun != "":
		out = append(out, st(5, StatusNeedsWork, s.Rerun+", and it is not steady yet (it compiled something new, or "+
			"its verdict is not steady): fix the steps above, then rerun"))
	default:
		out = append(out, st(5, StatusNotRun, "needs a rerun of the same command that compiles nothing new"))
	}
	if s.Unfinished != "" {
		for i := 1; i < len(out); i++ {
			p := &out[i]
			if p.Status == StatusDone || p.ID == "steady" || (p.ID == "cudagraphs" && p.Status == StatusNotApplicable && !s.CPUOnly) {
				p.Status, p.Why = StatusNotRun, "the run did not finish ("+s.Unfinished+")"
			}
		}
	}
	return out
}

// RerecordsFew is how many CUDA-graph re-recordings pass as warm-up (a few shapes or pointers settling).
const RerecordsFew = 3

// cudagraphWork words what the CUDA-graph step has to fix, each with its count (none: nothing).
func cudagraphWork(s State) []string {
	var out []string
	if s.CudagraphSkips > 0 {
		out = append(out, Plural(s.CudagraphSkips, "CUDA-graph skip"))
	}
	if s.CudagraphPartitions > 0 {
		out = append(out, Plural(s.CudagraphPartitions, "non-cudagraphable partition"))
	}
	if s.CudagraphRerecords > RerecordsFew {
		out = append(out, fmt.Sprintf("%s (more than %d)", Plural(s.CudagraphRerecords, "CUDA-graph re-recording"), RerecordsFew))
	}
	if s.CudagraphWarnings > 0 {
		out = append(out, Plural(s.CudagraphWarnings, "CUDA-graph warning")+" to fix")
	}
	return out
}

// JoinAnd joins words as a list: "a", "a and b", "a, b and c".
func JoinAnd(parts []string) string {
	if n := len(parts); n > 1 {
		return strings.Join(parts[:n-1], ", ") + " and " + parts[n-1]
	}
	return strings.Join(parts, "")
}

// logged: a step that needs its log on: work found is work (whatever showed it), nothing found is done only
// when the log was on.
func logged(st func(int, string, string) StepStatus, i int, on bool, unexpected int, off, work string) StepStatus {
	switch {
	case unexpected > 0:
		return st(i, StatusNeedsWork, work)
	case !on:
		return st(i, StatusNotRun, off)
	}
	return st(i, StatusDone, "")
}

// NextStep proposes the first of the steps before the six that the State puts first (firstSteps: LogsStep,
// CrashStep, FailedStep, StoppedStep unless a step found work, EvidenceStep), else the first step that needs work,
// else the first that has not run, with the ids of the steps done (not applicable ones are not "done"). When every
// step is done or not applicable the returned Step is the zero Step.
func NextStep(s State) (Step, []string) {
	var done []string
	var work, notRun Step
	for _, p := range Progress(s) {
		switch {
		case p.Status == StatusDone:
			done = append(done, p.ID)
		case p.Status == StatusNeedsWork && work.ID == "":
			work = p.Step
		case p.Status == StatusNotRun && notRun.ID == "":
			notRun = p.Step
		}
	}
	for _, f := range firstSteps {
		if f.why(s) != "" && (!f.afterWork || work.ID == "") {
			return f.Step, done
		}
	}
	switch {
	case work.ID != "":
		return work, done
	case s.NeedLogs && s.CompileOff == "" && s.Unfinished == "":
		for _, p := range Progress(s) {
			if p.ID == "breaks" && p.Status == StatusNotRun {
				return p.Step, done
			}
		}
	}
	return notRun, done
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Plural is "1 skip" / "3 skips", "2 processes": the one rule (triage.Plural and the TUI call it).
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "s") || strings.HasSuffix(word, "x") || strings.HasSuffix(word, "sh") || strings.HasSuffix(word, "ch") {
		return strconv.Itoa(n) + " " + word + "es" // "2 processes"
	}
	return strconv.Itoa(n) + " " + word + "s"
}

package playbooks

import "strings"

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
		TorchLogs: "graph_breaks,recompiles,ddp_graphs per rank, plus TORCH_TRACE and TORCH_DISTRIBUTED_DEBUG=DETAIL",
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

// Phrase is the step's title inside a sentence: "fix the crash first".
func (s Step) Phrase() string {
	if s.Title == "" {
		return ""
	}
	return strings.ToLower(s.Title[:1]) + s.Title[1:]
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
	// Hung words where each rank of a run that hung waits (the hang finding's summary), "" when the run did not
	// hang or nothing shows where its ranks wait: unblocking them comes before letting the run finish (HangStep).
	Hung string
	// LogsRejected words how torch rejected the run's TORCH_LOGS at import, "" when it did not: fixing the setting
	// comes first (LogsStep), before the crash it looks like.
	LogsRejected string
	// Wrong words the wrong result PyTorch's accuracy check found, with its playbook, "" when none: finding where
	// it goes wrong comes first (WrongStep), before the AccuracyError's stop counts as a crash.
	Wrong string
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

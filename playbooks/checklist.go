package playbooks

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
		TorchLogs: "recompiles_verbose,guards,dynamic (preset guards for the full guard set)",
		When:      "When the run recompiles more than automatic dynamic explains.",
		DoneWhen:  "No unexpected recompiles after warm-up; no recompile-limit hit.",
		StopWhen:  "Variants are inherent (modes, a few shapes) and bounded: accept them and warm each one up.",
	},
	{
		N: 4, ID: "cudagraphs", Title: "Check CUDA graphs",
		Goal:      "Every graph that should use CUDA graphs does.",
		Preset:    "cudagraphs",
		TorchLogs: "perf_hints,cudagraphs",
		When:      "When mode=\"reduce-overhead\" is used or CUDA-graph skips appear.",
		DoneWhen:  "No 'skipping cudagraphs' messages.",
		StopWhen:  "The skip cause is structural (CPU work, data-dependent shapes): partition or leave those graphs without CUDA graphs.",
	},
	{
		N: 5, ID: "ranks", Title: "Check that ranks agree",
		Goal:      "All ranks compile the same graphs with the same settings.",
		Preset:    "distributed",
		TorchLogs: "graph_breaks,recompiles per rank, plus TORCH_TRACE",
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

// Checklist returns the six steps in order (a copy).
func Checklist() []Step { return append([]Step(nil), checklist...) }

// State is what the caller knows about the latest run.
type State struct {
	Ranks                int
	HasBaseline          bool
	Breaks               int
	UnexpectedBreaks     int
	Recompiles           int
	UnexpectedRecompiles int
	CudagraphSkips       int
	ReduceOverhead       bool
	RanksAgree           bool
	SteadyRerun          bool
}

// NextStep proposes the next checklist step. Steps are taken in order and
// the first one that still needs work is returned:
//
//  1. baseline   needs work while !HasBaseline
//  2. breaks     needs work while UnexpectedBreaks > 0
//  3. recompiles needs work while UnexpectedRecompiles > 0
//  4. cudagraphs applies when ReduceOverhead or CudagraphSkips > 0, and
//     needs work while CudagraphSkips > 0
//  5. ranks      applies when Ranks > 1, and needs work while !RanksAgree
//  6. steady     needs work while !SteadyRerun
//
// done lists, in order, the ids of the steps before the returned one that need
// no more work (finished or not applicable). When nothing needs work the
// returned Step is the zero Step (ID "") and done holds all six ids.
// Breaks and Recompiles (totals, expected ones included) do not change the
// proposal: only the unexpected counts do. Negative counts act as zero.
func NextStep(s State) (Step, []string) {
	needs := []bool{
		!s.HasBaseline,
		s.UnexpectedBreaks > 0,
		s.UnexpectedRecompiles > 0,
		s.CudagraphSkips > 0,
		s.Ranks > 1 && !s.RanksAgree,
		!s.SteadyRerun,
	}
	var done []string
	for i, st := range checklist {
		if needs[i] {
			return st, done
		}
		done = append(done, st.ID)
	}
	return Step{}, done
}

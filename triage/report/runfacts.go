package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage/probe"
)

// Outcome is how a run ended, as the launcher saw it.
type Outcome string

// Run outcomes.
const (
	OutcomeCompleted   Outcome = "completed"     // exited 0
	OutcomeFailed      Outcome = "failed"        // exited non-zero, or was killed by a signal the tool did not send
	OutcomeStopped     Outcome = "stopped"       // the tool stopped it (cancel, timeout, relaunch, quit): StopReason
	OutcomeDidNotStart Outcome = "did_not_start" // the command could not be launched
	OutcomeRunning     Outcome = "running"       // still going
	OutcomeInterrupted Outcome = "interrupted"   // the tool supervising it is gone (killed, out of disk, hung up): no end recorded
	OutcomeUnknown     Outcome = "unknown"       // its record is unreadable
)

// RunFacts are what the launcher knows of the run that printed the logs; nil for logs without a run (a file, a
// paste). Callers build them from the run's meta.json (session.RunFactsOf).
type RunFacts struct {
	Outcome    Outcome
	StopReason string // OutcomeStopped: why the tool stopped it ("cancelled", "timed out after 5m0s", …)
	ExitCode   *int
	Signal     string
	Error      string // OutcomeDidNotStart: why
	// TorchLogs is the TORCH_LOGS the run set; TorchLogsSet says whether the run's environment is known at all
	// (a run the tool launched always knows it: "" then means logging was off).
	TorchLogs    string
	TorchLogsSet bool
	TorchVersion string // as the launcher knew it (the probe's is better)
	WorldSize    int    // processes the launcher started (torchrun --nproc-per-node, WORLD_SIZE), 0 unknown
	// TorchImported: the processes the probe saw import torch (its start files), with the version it reported:
	// torch ran, even in a run that printed nothing of it and died before the probe's exit file
	TorchImported        int
	TorchImportedVersion string
	// Started: each of those processes, as its start file names it (configMissing: which wrote no config at exit)
	Started []ProbeStart
	// CompileStates: each process's compile state as its probe last wrote it (compile-rank<R>-<pid>.json): what
	// each rank had compiled when the run ended, or so far (rank agreement's Compiles)
	CompileStates []ProbeCompileState
	// Direct: the command run is python or torchrun itself, so its exit status is the program's (a shell or another
	// wrapper may exit 0 after python died: sh -c "python x.py; echo done")
	Direct bool
	// ToolEnv is what the tool added to the run's environment (the preset's settings, the probe's plumbing):
	// a knob set there is the tool's doing, never a finding against the user's program.
	ToolEnv map[string]string
	// Probed: the run's environment installed the probe (a run launched without --no-probe), so a process that
	// imported torch wrote a start file, and its config at exit (Analysis.NoConfig says why none did)
	Probed bool
	// Stalls are the periods without output the tool's watchdog recorded (meta.json's stalls), in order
	Stalls []StallFact
	// End is when the run ended (meta.json's end); zero while it runs, or when not recorded
	End time.Time
	// Steps are the probe's steps files, one a process (where each compile came, by step: steady.Of);
	// StepMarker and WarmupSteps what the run was launched with (its environment: probe.StepMarkerEnv,
	// probe.WarmupStepsEnv), "" and nil when not
	Steps       []probe.StepLog
	StepMarker  string
	WarmupSteps *int
	// Minified is what PyTorch's minifier and compiler bisector found of this run's failure, one line each
	// ("Minifier: minified from 10 to 3 nodes …", "Compiler bisector: the bisector blames …"): the ladder's
	// minified/verdict.json; nil when neither ran on it
	Minified []string
}

// StallFact is one period the run printed nothing for longer than the tool's stall setting.
type StallFact struct {
	Since    time.Time // the program's last output before it
	Detected time.Time // when the watchdog noticed
	// Until is when it ended: the program's output again (Resumed), or the run's end while still stalled (the tool's
	// stop, or the program's exit without a line); zero while it goes on
	Until   time.Time
	Resumed bool
	// Compiling is what the probe said was compiling when it was noticed (probe.DescribeCompiling's words), "" when
	// nothing was
	Compiling string
}

// WithWarmup is r judged with a warm-up of k steps (check --warmup-steps) instead of its own; r itself when k is
// nil or r is.
func (r *RunFacts) WithWarmup(k *int) *RunFacts {
	if r == nil || k == nil {
		return r
	}
	cp := *r
	cp.WarmupSteps = k
	return &cp
}

func (r *RunFacts) ToolEnvironment() map[string]string {
	if r == nil {
		return nil
	}
	return r.ToolEnv
}

// evidenceWith completes what the inputs showed with what the launcher and the probe know.
func EvidenceWith(ev ReportEvidence, rep *Report, run *RunFacts, probes []ProcessInfo) ReportEvidence {
	ev.TorchSeenBy = slices.Clone(ev.TorchSeenBy)
	if len(probes) > 0 {
		ev.TorchSeen = true
		ev.TorchSeenBy = append(ev.TorchSeenBy, "probe")
	} else if run != nil && run.TorchImported > 0 { // no exit file (the process died), but torch was imported
		ev.TorchSeen = true
		ev.TorchSeenBy = append(ev.TorchSeenBy, "probe (torch imported)")
	}
	if run != nil && ev.Partial { // the tool captured the whole output: an exception printed bare is the program's
		ev.PartialReasons = slices.DeleteFunc(slices.Clone(ev.PartialReasons), func(r string) bool { return strings.HasPrefix(r, logparse.CutBareException) })
		ev.Partial = len(ev.PartialReasons) > 0
	}
	ev.LogsRejected = logsRejected(rep)
	ev.CompileOff = compileOff(run, probes)
	ev.NoFrameCompiled = ev.CompileOff == "" && noFrameCompiled(rep, probes)
	if ev.CompileOff == "" && !ev.NoFrameCompiled {
		ev.NoGraphCompiled = noGraphCompiled(rep, probes)
	}
	if run != nil && run.TorchLogsSet {
		ev.Logs, ev.LogsFrom = LogNames(run.TorchLogs), "run"
		if ev.Logs == nil {
			ev.Logs = []string{}
		}
		lg := LoggedBy(run.TorchLogs, run.TorchVersion)
		if ev.LogsRejected {
			lg = Logged{} // torch raised at import: none of the names was on
		}
		trace := slices.Contains(ev.TorchSeenBy, "TORCH_TRACE")
		// records of a kind prove it was logged, whatever the run asked for
		ev.GraphBreaksLogged = lg.GraphBreaks || trace || graphBreaksLogged(rep)
		ev.RecompilesLogged = lg.Recompiles || trace || rep.Counts.Recompiles > 0
	}
	runTorch := ""
	if run != nil {
		runTorch = run.TorchVersion
	}
	// the run's TORCH_LOGS and the probe's torch version say whether skips could print
	ev.CudagraphSkipsLogged = skipsLogged(ev, rep, runTorch)
	if ev.LogsRejected { // the process died at import: no skip could print either
		ev.CudagraphSkipsLogged = rep.Counts.CudagraphSkips > 0
	}
	if !ev.TorchSeen { // TORCH_LOGS shows nothing when torch never ran
		ev.GraphBreaksLogged, ev.RecompilesLogged = false, false
	}
	ev.Ranks = worldRanks(rep, run, probes, ev.TorchSeen)
	return ev
}

// compileOff says what turned torch.compile off, "" when nothing did: the tool's eager preset
// (TORCHDYNAMO_DISABLE=1 in what it added to the run's environment), or what a process ran with (its environment
// or Dynamo's config, as the probe recorded them at exit: a wrapper script or the program may set them).
func compileOff(run *RunFacts, probes []ProcessInfo) string {
	if run.ToolEnvironment()["TORCHDYNAMO_DISABLE"] == "1" {
		return "TORCHDYNAMO_DISABLE=1, set by the eager preset"
	}
	for _, p := range probes {
		switch {
		case p.Env["TORCHDYNAMO_DISABLE"] == "1":
			return "TORCHDYNAMO_DISABLE=1"
		case p.Env["TORCH_COMPILE_DISABLE"] == "1":
			return "TORCH_COMPILE_DISABLE=1"
		case p.Config["dynamo.disable"] == true:
			return "torch._dynamo.config.disable"
		}
	}
	return ""
}

// noGraphCompiled says that Dynamo compiled frames but no graph: each process the probe recorded compiling a
// frame counted no graph (Dynamo adds one to counters["stats"]["unique_graphs"] for every graph it hands the
// backend, torch/_dynamo/output_graph.py; a frame that holds no op hands none), no TORCH_TRACE compile shows one,
// and no compile failed (a graph that failed is that error's finding). torch.compile(DDP(nn.Sequential(…))) does
// this on 2.6 and 2.14.1: Dynamo breaks in DDP's wrapper and compiles frames around it, none of them the model's
// (testdata/recorded/ddp-compile). "" otherwise.
func noGraphCompiled(rep *Report, probes []ProcessInfo) string {
	if rep.UniqueGraphs > 0 || rep.Counts.CompileErrors > 0 || len(rep.CompileErrors) > 0 {
		return ""
	}
	frames, procs := 0, 0
	for _, p := range probes {
		if p.Counters["stats"]["unique_graphs"] > 0 {
			return ""
		}
		if n := int(p.Counters["frames"]["ok"]); n > 0 {
			frames += n
			procs++
		}
	}
	if procs == 0 {
		return ""
	}
	where, who := "", "the probe"
	if procs > 1 {
		where, who = fmt.Sprintf(" in %d processes", procs), "the probes"
	}
	trace := ""
	if rep.UniqueGraphs == 0 {
		trace = ", nor does TORCH_TRACE show one"
	}
	return fmt.Sprintf("Dynamo compiled %s%s but no graph (%s counted none%s)", Plural(frames, "frame"), where, who, trace)
}

// noFrameCompiled: the probe recorded processes, none of which compiled a frame (Dynamo's frame counters and
// compile times empty), and no input holds a compile record or any break, recompile or compile error.
func noFrameCompiled(rep *Report, probes []ProcessInfo) bool {
	if len(probes) == 0 {
		return false
	}
	c := rep.Counts
	if c.GraphBreakRecords+c.Recompiles+c.RecompileLimitHits+c.CompileErrors > 0 || len(rep.Compiles) > 0 || rep.Compile != nil && rep.Compile.TotalS != nil {
		return false
	}
	for _, p := range probes {
		if !CompiledNothing(p) {
			return false
		}
	}
	return true
}

// logsRejected: a process died of torch rejecting its TORCH_LOGS value at import (ErrorCause's "invalid
// TORCH_LOGS"), so nothing that value asked for was logged.
func logsRejected(rep *Report) bool {
	for _, e := range rep.RuntimeErrors {
		if e.TorchLogs || ErrorCause(e.Class, e.Inner, e.Message) == "invalid TORCH_LOGS" {
			return true
		}
	}
	return false
}

// worldRanks are the ranks every source knows of: rank prefixes and files (the report), the probe files, and
// the launcher's process count (ranks 0…N-1) — a clean 2-rank job prints no rank prefix at all — once torch ran:
// a launcher that failed before starting its ranks started none.
func worldRanks(rep *Report, run *RunFacts, probes []ProcessInfo, torchRan bool) []int {
	set := map[int]bool{}
	for _, r := range rep.Ranks {
		set[r] = true
	}
	for _, p := range probes {
		if p.Rank >= 0 && (p.WorldSize > 1 || len(probes) > 1) {
			set[p.Rank] = true
		}
		if p.WorldSize > 1 {
			for r := range p.WorldSize {
				set[r] = true
			}
		}
	}
	if run != nil && run.WorldSize > 1 && torchRan {
		for r := range run.WorldSize {
			set[r] = true
		}
	}
	return SortedInts(set)
}

// interrupted lists the interrupts the log shows (KeyboardInterrupt, SystemExit, SignalException).
func Interrupted(rep *Report) []string {
	var out []string
	for _, e := range rep.ExceptionEvents() {
		short := e.Interrupt // an error raised while handling the stop: the stop is what happened
		switch {
		case short != "":
		case e.Class == "KeyboardInterrupt", e.Class == "SystemExit", strings.HasSuffix(e.Class, ".SignalException"):
			short = e.Class[strings.LastIndexByte(e.Class, '.')+1:]
		default:
			continue
		}
		if !slices.Contains(out, short) {
			out = append(out, short)
		}
	}
	return out
}

// StoppedBy is why the tool itself stopped the run ("cancelled" when it did not say), "" when it did not stop it:
// the one wording the verdict, the bringup log and the TUI give such a run.
func (f *RunFacts) StoppedBy() string {
	if f == nil || f.Outcome != OutcomeStopped {
		return ""
	}
	return cmp.Or(f.StopReason, "cancelled")
}

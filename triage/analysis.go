package triage

import (
	"slices"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/steady"
)

// Analysis is what a report means: findings by impact, rank agreement, the verdict and the next checklist step.
type Analysis struct {
	Report        *report.Report
	Findings      []findings.Finding
	RankAgreement ranks.RankAgreement
	Verdict       Verdict
	// Hang is whether the run hung and where each rank waited (report.HangOf); nil when nothing shows a wait
	Hang *report.Hang
	// AfterWarmup is what compiled past the run's warm-up, by step (steady.Of, the run's own warm-up);
	// nil for a run whose probe kept no steps
	AfterWarmup *steady.AfterWarmup
	// Coverage is how much ran compiled, as the probes counted it (report.CoverageOf); nil without them
	Coverage      *report.Coverage
	Evidence      report.ReportEvidence  // what the inputs, the launcher and the probe showed
	Run           *report.RunFacts       // nil for logs without a run
	NextStep      playbooks.Step         // zero Step when nothing is left to do
	Done          []string               // checklist step ids done (evidence shows it)
	Steps         []playbooks.StepStatus // every checklist step with where it stands and why
	NoConfig      string                 // why the probe recorded no process's config (noConfig); "" when it did
	ConfigMissing string                 // the processes that wrote no config where others did (configMissing)
	state         playbooks.State
	// hiddenPartitions says why partitions are not known although cudagraphs logging was on (partitionsHidden)
	hiddenPartitions string
	gpu              bool // a probed process used a GPU, or the records show CUDA graphs (nothingText)
}

// State is the checklist state Analyze derived from the evidence; callers that know more (an eager baseline was
// taken, this is a rerun) adjust it and call playbooks.Progress themselves.
func (a *Analysis) State() playbooks.State { return a.state }

// Analyze is AnalyzeRun for logs without a run.
func Analyze(rep *report.Report, set *playbooks.Set, probes []report.ProcessInfo) *Analysis {
	return AnalyzeRun(rep, set, probes, nil)
}

// AnalyzeRun turns a report into findings. set may be nil (the built-in playbooks are used); probes (may be nil)
// are the in-process probe files of the run: they add config_parity and probe_mismatch findings and the unique
// graph count.
func AnalyzeRun(rep *report.Report, set *playbooks.Set, probes []report.ProcessInfo, run *report.RunFacts) *Analysis {
	if set == nil {
		set, _ = playbooks.Builtin()
	}
	if rep == nil {
		rep = &report.Report{}
	}
	rep = report.SettledByExit(rep, run)
	rep.Compile = report.WithProbeCompile(rep.Compile, probes)
	if v := probeTorch(probes); rep.TorchVersion == nil && v != "" {
		rep.TorchVersion = &v
	} else if rep.TorchVersion == nil && run != nil && run.TorchImportedVersion != "" { // the probe's start file
		v := run.TorchImportedVersion
		rep.TorchVersion = &v
	}
	snap := rep.Det
	if snap == nil {
		snap = snapshotFromSummaries(rep)
	}
	in := &findings.Input{Report: rep, Snap: snap, Set: set, Probes: probes, Recompiling: map[string]bool{},
		RankWords: rep.Evidence.ItemRanks} // an item's ranks in words ("no rank prefix" in a torchrun job)
	off := automaticDynamicOff(probes)
	for _, g := range snap.Groups {
		if len(off) > 0 && len(g.Autos) > 0 {
			g = g.WithoutAutomaticDynamic(off)
		}
		in.Groups = append(in.Groups, g)
		in.Recompiling[g.Key.File+"\x00"+g.Key.Fn] = true
	}
	fs := findings.Build(in)
	if run != nil && len(run.Minified) > 0 { // what PyTorch's tools found of this run's failure goes with it
		for i := range fs {
			if k := fs[i].Kind; (k == findings.KindAccuracy || k == findings.KindCompileError || k == findings.KindRuntimeError) && !fs[i].Caught {
				fs[i].Detail += "\n" + strings.Join(run.Minified, "\n")
			}
		}
	}
	ev := report.EvidenceWith(rep.Evidence, rep, run, probes)
	unknown := ranks.RanksWithoutRecords(rep, ev.Ranks, run, probes, ev.TorchSeen)
	// one source: the header's ranks and cuts, and the ranks of them per_rank has no counts of
	if !slices.Equal(rep.Ranks, ev.Ranks) || rep.Partial != ev.Partial || !slices.EqualFunc(rep.PerRankUnknown, unknown, ranks.SameRankWithoutRecords) {
		cp := *rep
		cp.Ranks = ev.Ranks // a rank no record names is one too
		cp.Partial, cp.PartialReasons = ev.Partial, ev.PartialReasons
		cp.PerRankUnknown = unknown
		rep = &cp
	}
	breaksAsked := ev.GraphBreaksLogged // TORCH_LOGS had graph_breaks, or its records printed
	if ev.LogSilenced = logSilenced(rep, probes, ev.TorchSeen && ev.GraphBreaksLogged); ev.LogSilenced != "" {
		// the log lacks what a process counted: none of its counts stands, each is a floor
		ev.GraphBreaksLogged, ev.RecompilesLogged, ev.CudagraphSkipsLogged = false, false, false
	}
	if ev.TorchSeen && !ev.GraphBreaksLogged {
		ev.ResumeBreaks = resumeBreaks(rep, snap)
	}
	short := unfinished(CountFindings(fs), run, rep)
	idle := ranks.IdleRanks(rep, probes, short)
	ra := ranks.WithCompiles(ranks.RankAgreeWithout(ev, fs, idle, short, rep.PerRankUnknown), ev, fs, run)
	if ra.Disagree() {
		fs = append(fs, ranks.DisagreementFinding(ra, fs, set))
	}
	fs = append(fs, probeFindings(rep, probes, set, breaksAsked, run == nil || run.Outcome == report.OutcomeCompleted)...)
	ra = withSettings(ra, fs)
	fs = append(fs, findings.CompileFindings(rep.Compile, probes, set, run.ToolEnvironment(), idle)...)
	hang := report.HangOf(rep, run, ev.Ranks)
	if f, ok := findings.HangFinding(hang, set); ok {
		fs = append(fs, f)
	}
	after := steady.WithLog(steady.Of(run, -1), rep.Serving) // the probe's steps, and a serving framework's own lines
	fs = append(fs, findings.WarmupFindings(after, set, probes)...)
	findings.SortFindings(fs)
	a := &Analysis{Report: rep, Findings: fs, RankAgreement: ra, Evidence: ev, Run: run, NoConfig: report.NoConfig(run, len(probes)),
		ConfigMissing: report.ConfigMissing(run, probes), Hang: hang, AfterWarmup: after, Coverage: report.CoverageOf(probes)}
	a.Verdict = verdictOf(rep, fs, ra, probes, run, ev, hang)
	if rep.UniqueGraphs < 0 && a.Verdict.UniqueGraphs >= 0 { // the probe counted them: one number in the report
		rep.UniqueGraphs = a.Verdict.UniqueGraphs
	}
	a.state = stateOf(fs, ra, ev, probes, run, rep)
	a.state.Hung = a.Hung() // the hang comes first: no rank gets past it
	a.hiddenPartitions = partitionsHidden(a)
	a.Evidence.CudagraphRerecordsLogged = a.Evidence.TorchSeen && CudagraphsLogged(a)
	a.Evidence.CudagraphPartitionsLogged = a.Evidence.CudagraphRerecordsLogged && a.hiddenPartitions == ""
	a.gpu = a.state.UsesCUDAGraphs || slices.ContainsFunc(probes, func(p report.ProcessInfo) bool { return p.GPU != "" })
	if why := a.hiddenPartitions; why != "" {
		a.Verdict.Summary += "; " + why
		a.state.CudagraphsLogged = false // logged, but a cached graph prints nothing: the CUDA-graph step is not done
	}
	a.Steps = playbooks.Progress(a.state)
	a.NextStep, a.Done = playbooks.NextStep(a.state)
	return a
}

// withSettings adds the settings that differ between ranks (config parity findings) to their agreement: ranks that
// logged the same but ran with different settings are not said to "agree" without it.
func withSettings(ra ranks.RankAgreement, fs []findings.Finding) ranks.RankAgreement {
	for _, f := range fs {
		if f.Kind == findings.KindConfigParity {
			ra.SettingsDiffer = append(ra.SettingsDiffer, f.What)
		}
	}
	if len(ra.SettingsDiffer) > 0 && ra.NotCompared == "" {
		ra.Summary += "; settings differ: " + strings.Join(findings.CapList(ra.SettingsDiffer, 3), ", ")
	}
	return ra
}

// automaticDynamicOff is the ranks (-1: a process without one) whose probe recorded automatic dynamic off
// (dynamo.automatic_dynamic_shapes false): no recompile of theirs is automatic dynamic's expected first.
func automaticDynamicOff(probes []report.ProcessInfo) map[int]bool {
	var off map[int]bool
	for _, p := range probes {
		if v, ok := p.Config["dynamo.automatic_dynamic_shapes"].(bool); ok && !v {
			if off == nil {
				off = map[int]bool{}
			}
			off[p.RankOf()] = true
		}
	}
	return off
}

// snapshotFromSummaries is the detail of a report not built by an Aggregator (decoded from JSON): no recompile
// groups (the JSON keeps no records to classify); per-rank counts of breaks and skips come from their evidence.
func snapshotFromSummaries(rep *report.Report) *report.DetailSnap {
	var d report.Details
	snap := d.Snapshot(&report.Report{}, nil)
	snap.Breaks, snap.Skips = nil, nil
	return snap
}

// unlogged says why a's input could not show items of kind k ("" when it could): no torch output at all (and
// whose doing that was: the program's, the tool's stop, a launch that failed), or
// TORCH_LOGS without them (known of a run; of logs alone only that nothing shows they were logged), or, for
// partitions, graphs loaded from the FX graph cache, which prints none (Analysis.PartitionsHidden: the bringup
// log's words). Limit hits and errors always print.
func (a *Analysis) Unlogged(k findings.Kind) string {
	ev := a.Evidence
	if !ev.TorchSeen {
		return a.SilentWhy()
	}
	if ev.NothingCompiled() != "" && k != findings.KindRuntimeError { // nothing compiled: none of them could happen
		return "compiled nothing (" + ev.NothingCompiledShort() + ")"
	}
	if ev.LogSilenced != "" && k != findings.KindCompileError && k != findings.KindRuntimeError { // raised errors print without the log
		return "lacks in its log what its probe counted (" + ev.LogSilenced + ")"
	}
	logged := true
	switch k {
	case findings.KindGraphBreak:
		logged = ev.GraphBreaksLogged
	case findings.KindRecompile:
		logged = ev.RecompilesLogged
	case findings.KindCudagraphSkip:
		logged = ev.CudagraphSkipsLogged
	case findings.KindCudagraphPartition:
		logged = ev.CudagraphPartitionsLogged
	case findings.KindCudagraphRerecord:
		logged = ev.CudagraphRerecordsLogged
	case findings.KindAccuracy: // judged only under PyTorch's accuracy check (its AccuracyError shows it was on)
		logged = (a.Run != nil && a.Run.ToolEnv["TORCHDYNAMO_REPRO_LEVEL"] == "4") || slices.ContainsFunc(a.Findings, func(f findings.Finding) bool { return f.Kind == findings.KindAccuracy })
	}
	switch {
	case logged:
		return ""
	case k == findings.KindCudagraphPartition && a.PartitionsHidden() != "": // TORCH_LOGS had cudagraphs: not its doing
		return PartitionsFromCache
	case k == findings.KindAccuracy:
		return "did not run PyTorch's accuracy check (TORCHDYNAMO_REPRO_LEVEL=4)"
	case ev.LogsFrom == "run": // the run's own TORCH_LOGS is known
		return "did not log them (TORCH_LOGS)"
	}
	return "shows no sign they were logged (TORCH_LOGS)" // logs alone: no such record, no tag of their name
}

// SilentWhy says why the run (or logs alone) of an analysis holds no torch output, for a side of a comparison: the
// program printed none, the tool stopped it first or it never started (the verdict's words, never the program
// blamed for the tool's stop).
func (a *Analysis) SilentWhy() string { return silentRunWhy(a.Run) }

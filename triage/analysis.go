package triage

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
)

// Analysis is what a report means: findings by impact, rank agreement, the verdict and the next checklist step.
type Analysis struct {
	Report        *Report
	Findings      []Finding
	RankAgreement RankAgreement
	Verdict       Verdict
	Evidence      ReportEvidence         // what the inputs, the launcher and the probe showed
	Run           *RunFacts              // nil for logs without a run
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
func Analyze(rep *Report, set *playbooks.Set, probes []ProcessInfo) *Analysis {
	return AnalyzeRun(rep, set, probes, nil)
}

// AnalyzeRun turns a report into findings. set may be nil (the built-in playbooks are used); probes (may be nil)
// are the in-process probe files of the run: they add config_parity and probe_mismatch findings and the unique
// graph count.
func AnalyzeRun(rep *Report, set *playbooks.Set, probes []ProcessInfo, run *RunFacts) *Analysis {
	if set == nil {
		set, _ = playbooks.Builtin()
	}
	if rep == nil {
		rep = &Report{}
	}
	rep = settledByExit(rep, run)
	rep.Compile = withProbeCompile(rep.Compile, probes)
	if v := probeTorch(probes); rep.TorchVersion == nil && v != "" {
		rep.TorchVersion = &v
	} else if rep.TorchVersion == nil && run != nil && run.TorchImportedVersion != "" { // the probe's start file
		v := run.TorchImportedVersion
		rep.TorchVersion = &v
	}
	snap := rep.det
	if snap == nil {
		snap = snapshotFromSummaries(rep)
	}
	rw := rep.Evidence.itemRanks // an item's ranks in words ("no rank prefix" in a torchrun job)
	// the findings of distinct breaks and recompile groups (thousands in a big run) are made on every core
	recompiling := map[string]bool{}
	groups := make([]*groupSnap, 0, len(snap.groups))
	off := automaticDynamicOff(probes)
	for _, g := range snap.groups {
		if len(off) > 0 && len(g.autos) > 0 {
			g = g.withoutAutomaticDynamic(off)
		}
		groups = append(groups, g)
		recompiling[g.key.file+"\x00"+g.key.fn] = true
	}
	recomps := make([]Finding, len(groups))
	inParallel(len(groups), 64, func(from, to int) {
		for i := from; i < to; i++ {
			recomps[i] = recompileFinding(groups[i], set, rw)
		}
	})
	sort.Slice(recomps, func(i, j int) bool { return recomps[i].ID < recomps[j].ID })
	limits := limitFindings(rep.LimitEvents(), recomps, set)
	fs := make([]Finding, len(rep.GraphBreaks), len(rep.GraphBreaks)+len(recomps)+len(limits))
	inParallel(len(fs), 64, func(from, to int) {
		for i := from; i < to; i++ {
			fs[i] = breakFinding(rep.GraphBreaks[i], snap, set, recompiling, rw, probes)
		}
	})
	fs = append(fs, recomps...)
	fs = append(fs, limits...)
	for _, s := range rep.CudagraphSkips {
		fs = append(fs, skipFinding(s, snap, set, rw))
	}
	fs = append(fs, gpuFindings(rep, snap, set, rw)...)
	fs = append(fs, ddpSplitFindings(rep.DDPSplits, set, rw)...)
	fs = append(fs, errorFindings(rep.ErrorEvents(), KindCompileError, set, rep.FirstFailure)...)
	fs = append(fs, errorFindings(rep.RuntimeErrorEvents(), KindRuntimeError, set, rep.FirstFailure)...)
	fs = append(fs, errorFindings(caughtCompiles(rep.ExceptionEvents()), KindCompileError, set, nil)...)
	uniqueIDs(fs)
	ev := evidenceWith(rep.Evidence, rep, run, probes)
	unknown := ranksWithoutRecords(rep, ev.Ranks, run, probes, ev.TorchSeen)
	// one source: the header's ranks and cuts, and the ranks of them per_rank has no counts of
	if !slices.Equal(rep.Ranks, ev.Ranks) || rep.Partial != ev.Partial || !slices.EqualFunc(rep.PerRankUnknown, unknown, sameRankWithoutRecords) {
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
	short := unfinished(countFindings(fs), run, rep)
	idle := idleRanks(rep, probes, short)
	ra := withCompiles(rankAgreeWithout(ev, fs, idle, short, rep.PerRankUnknown), ev, fs, run)
	if ra.Disagree() {
		fs = append(fs, disagreementFinding(ra, fs, set))
	}
	fs = append(fs, probeFindings(rep, probes, set, breaksAsked, run == nil || run.Outcome == OutcomeCompleted)...)
	ra = withSettings(ra, fs)
	fs = append(fs, compileFindings(rep.Compile, probes, set, run.toolEnv(), idle)...)
	sortFindings(fs)
	a := &Analysis{Report: rep, Findings: fs, RankAgreement: ra, Evidence: ev, Run: run, NoConfig: noConfig(run, len(probes)),
		ConfigMissing: configMissing(run, probes)}
	a.Verdict = verdictOf(rep, fs, ra, probes, run, ev)
	if rep.UniqueGraphs < 0 && a.Verdict.UniqueGraphs >= 0 { // the probe counted them: one number in the report
		rep.UniqueGraphs = a.Verdict.UniqueGraphs
	}
	a.state = stateOf(fs, ra, ev, probes, run, rep)
	a.hiddenPartitions = partitionsHidden(a)
	a.Evidence.CudagraphRerecordsLogged = a.Evidence.TorchSeen && cudagraphsLogged(a)
	a.Evidence.CudagraphPartitionsLogged = a.Evidence.CudagraphRerecordsLogged && a.hiddenPartitions == ""
	a.gpu = a.state.UsesCUDAGraphs || slices.ContainsFunc(probes, func(p ProcessInfo) bool { return p.GPU != "" })
	if why := a.hiddenPartitions; why != "" {
		a.Verdict.Summary += "; " + why
		a.state.CudagraphsLogged = false // logged, but a cached graph prints nothing: the CUDA-graph step is not done
	}
	a.Steps = playbooks.Progress(a.state)
	a.NextStep, a.Done = playbooks.NextStep(a.state)
	return a
}

// probeFindings turns the probe files into config_parity (settings that differ between ranks) and
// probe_mismatch (the process counted breaks the log does not show) findings.
// completed: the run ran to its end (a frame a stopped run was compiling when it stopped is no failure).
func probeFindings(rep *Report, probes []ProcessInfo, set *playbooks.Set, breaksLogged, completed bool) []Finding {
	if len(probes) == 0 {
		return nil
	}
	var out []Finding
	for _, d := range ConfigParity(probes) {
		f := Finding{Kind: KindConfigParity, Severity: "high", What: d.Key, ID: "config_parity:" + d.Key,
			Title: "Ranks run with different settings: " + OneLine(d.String(), 120), Detail: d.String(),
			ranks: map[int]rankStat{}, Evidence: []Evidence{}}
		for _, ranks := range d.Values {
			for _, r := range ranks {
				f.ranks[r] = statN(1)
			}
		}
		for _, p := range probes {
			if _, ok := f.ranks[p.Rank]; ok && len(f.Evidence) < maxEvidence {
				f.Evidence = append(f.Evidence, Evidence{Rank: p.Rank, Input: p.File})
			}
		}
		f.Ranks, f.Records = ranksOf(f.ranks), len(d.Values)
		applyPlaybook(&f, matchPlaybook(set, playbooks.Query{Kind: KindConfigParity, Reason: parityReason(d)}))
		f.key = f.ID
		out = append(out, f)
	}
	perRank := logBreaksPerRank(rep)
	errsPerRank := map[int]int{}
	for _, e := range append(rep.ErrorEvents(), caughtCompiles(rep.ExceptionEvents())...) {
		errsPerRank[e.Rank]++
	}
	limitsPerRank := map[int]int{}
	for _, l := range rep.LimitEvents() {
		limitsPerRank[l.Rank] += max(l.Records, 1) // an event is one hit
	}
	caught := map[int]string{} // per rank, an exception the program caught and printed bare: what a failed frame likely raised
	for _, e := range rep.ExceptionEvents() {
		if _, ok := caught[e.Rank]; !ok && e.Caught && e.Interrupt == "" {
			caught[e.Rank] = OneLine(e.Class+": "+e.Message, 100)
		}
	}
	failures := CompileFailureCheck(probes, errsPerRank, perRank, limitsPerRank, caught, breaksLogged, completed)
	for i := range failures {
		failures[i].unimplemented = true
	}
	for _, c := range append(CrossCheck(probes, perRank, breaksLogged), failures...) {
		id, what := fmt.Sprintf("probe_mismatch:rank%d", c.Rank), "breaks not logged"
		if breaksLogged {
			what = "breaks not in the log" // logged, but they did not reach it
		}
		if c.Rank < 0 {
			id = "probe_mismatch:process"
		}
		detail := fmt.Sprintf("%s\nThe process counted %s in %s; the log shows %d.",
			c.Message, Plural(c.ProcessBreaks, "distinct graph break"), Plural(c.ProcessEvents, "event"), c.LogBreaks)
		switch {
		case c.frames:
			id, what = id+":compile_failures", "compile failures not logged"
			detail = fmt.Sprintf("%s\nDynamo began %s it did not compile (counters[\"frames\"]: total less ok); the log shows no compile error or limit hit for it.",
				c.Message, Plural(c.ProcessBreaks, "frame"))
		case c.unimplemented:
			id, what = id+":compile_failures", "compile failures not logged"
			detail = fmt.Sprintf("%s\nDynamo counted %s (counters[\"unimplemented\"]); the log shows no compile error and no graph break for it.",
				c.Message, Plural(c.ProcessBreaks, "compile failure"))
		}
		f := Finding{Kind: KindProbeMismatch, What: what, ID: id,
			Title: c.Message, Records: c.ProcessEvents, Ranks: nonNeg([]int{c.Rank}), Evidence: []Evidence{},
			Detail: detail, ranks: map[int]rankStat{c.Rank: statN(1)}, silentFailure: c.frames || c.unimplemented}
		for _, p := range probes {
			if p.RankOf() == c.Rank {
				f.Evidence = append(f.Evidence, Evidence{Rank: c.Rank, Input: p.File})
				break
			}
		}
		applyPlaybook(&f, matchPlaybook(set, playbooks.Query{Kind: KindProbeMismatch, Reason: c.Message}))
		f.key = f.ID
		out = append(out, f)
	}
	return out
}

// withSettings adds the settings that differ between ranks (config parity findings) to their agreement: ranks that
// logged the same but ran with different settings are not said to "agree" without it.
func withSettings(ra RankAgreement, fs []Finding) RankAgreement {
	for _, f := range fs {
		if f.Kind == KindConfigParity {
			ra.SettingsDiffer = append(ra.SettingsDiffer, f.What)
		}
	}
	if len(ra.SettingsDiffer) > 0 && ra.NotCompared == "" {
		ra.Summary += "; settings differ: " + strings.Join(capList(ra.SettingsDiffer, 3), ", ")
	}
	return ra
}

// automaticDynamicOff is the ranks (-1: a process without one) whose probe recorded automatic dynamic off
// (dynamo.automatic_dynamic_shapes false): no recompile of theirs is automatic dynamic's expected first.
func automaticDynamicOff(probes []ProcessInfo) map[int]bool {
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

// logBreaksPerRank is the distinct graph breaks the log shows per rank (-1: records without a rank).
func logBreaksPerRank(rep *Report) map[int]int {
	perRank := map[int]int{}
	for k, c := range rep.PerRank {
		if r, err := strconv.Atoi(k); err == nil {
			perRank[r] = c.GraphBreaks
		}
	}
	if len(perRank) == 0 {
		perRank[-1] = rep.Counts.GraphBreaks
	} else {
		for _, b := range rep.GraphBreaks { // records without a rank prefix in a job of ranks
			if len(b.Ranks) == 0 {
				perRank[-1]++
			}
		}
	}
	return perRank
}

// logSilenced says which process counted graph breaks (the probe) its log does not show although graph_breaks
// was on (CrossCheck's second case): "the process counted 1 graph break its log does not show", "rank 1 counted
// 2 graph breaks …"; "" when none did or graph_breaks was not on.
func logSilenced(rep *Report, probes []ProcessInfo, graphBreaksLogged bool) string {
	if len(probes) == 0 || !graphBreaksLogged {
		return ""
	}
	var who []string
	for _, c := range CrossCheck(probes, logBreaksPerRank(rep), true) {
		w := "the process counted "
		if c.Rank >= 0 {
			w = "rank " + strconv.Itoa(c.Rank) + " counted "
		}
		who = append(who, w+Plural(c.ProcessBreaks, "graph break"))
	}
	if len(who) == 0 {
		return ""
	}
	if len(who) == 1 {
		return who[0] + " its log does not show"
	}
	return strings.Join(who, ", ") + " their logs do not show"
}

// parityReason words a difference for the matcher: "config dynamo.recompile_limit differs between ranks: …".
func parityReason(d Difference) string {
	what := "config"
	switch {
	case strings.HasPrefix(d.Key, "env."):
		what = "environment variable"
	case strings.HasPrefix(d.Key, "version."):
		what = "version"
	}
	return what + " " + d.Key + " differs between ranks: " + d.String()
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

// snapshotFromSummaries is the detail of a report not built by an Aggregator (decoded from JSON): no recompile
// groups (the JSON keeps no records to classify); per-rank counts of breaks and skips come from their evidence.
func snapshotFromSummaries(rep *Report) *detailSnap {
	var d details
	snap := d.snapshot(&Report{}, nil)
	snap.breaks, snap.skips = nil, nil
	return snap
}

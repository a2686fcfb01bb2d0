package gate

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/steady"
)

// cudagraphRules: --no-cudagraph-skips fails on every CUDA-graph skip and non-cudagraphable partition (part of a
// graph left out of CUDA graphs is the same cost, printed differently since 2.9) and on a CUDA-graph warning whose
// playbook says fix (pending backwards: calls that missed the fast path); --max-cudagraph-rerecords N on
// re-recordings beyond N (recordings after failed checks, not the failed checks: RerecordSummary).
func (res *Result) cudagraphRules(a *triage.Analysis, o Options) {
	if o.NoCudagraphSkips {
		alone := o.single()
		alone.NoCudagraphSkips = true
		res.rule(a, "--no-cudagraph-skips", alone)
		for i := range a.Findings {
			f := &a.Findings[i]
			switch f.Kind {
			case findings.KindCudagraphSkip:
				res.fail("--no-cudagraph-skips", report.Plural(f.Records, "CUDA-graph skip"), f)
			case findings.KindCudagraphPartition:
				res.fail("--no-cudagraph-skips", report.Plural(f.Records, "non-cudagraphable partition"), f)
			case findings.KindGPUWarning: // the fast path missed (pending backwards): those calls ran without CUDA graphs
				if f.CgWarningToFix() {
					res.fail("--no-cudagraph-skips", report.Plural(f.Records, "CUDA-graph warning"), f)
				}
			}
		}
	}
	if o.MaxCudagraphRerecords != nil {
		limit := *o.MaxCudagraphRerecords
		rule := fmt.Sprintf("--max-cudagraph-rerecords=%d", limit)
		alone := o.single()
		alone.MaxCudagraphRerecords = o.MaxCudagraphRerecords
		res.rule(a, rule, alone)
		if res.rerecordsAfterWarmup(a, o, rule, limit) {
			return
		}
		n := res.Counts.CudagraphRerecords
		if n > limit {
			for i := range a.Findings {
				if f := &a.Findings[i]; f.Kind == findings.KindCudagraphRerecord && f.Unexpected() > 0 {
					res.fail(rule, fmt.Sprintf("%s > %d", report.Plural(n, "re-recording"), limit), f)
				}
			}
		}
	}
}

// MissingEvidence says, in one line, what the inputs lack for the rules asked ("" when nothing): no torch output
// at all, or break/recompile logging the rules need that was off. The gate must not pass on nothing.
func MissingEvidence(a *triage.Analysis, o Options) string {
	ev := a.Evidence
	if !ev.TorchSeen {
		if a.Run != nil { // the run's own output, captured by the tool: no question of the right log
			return cmp.Or(triage.NoTorch(ev, a.Run, a.Report), "no torch output so far") +
				": nothing shows torch ran (does the command reach torch.compile?)"
		}
		return triage.NoTorch(ev, nil, a.Report) + ": nothing shows torch ran (is this the right log, and was its stderr captured?)"
	}
	needBreaks := o.MaxGraphBreaks >= 0 || o.RanksAgree || o.Baseline != nil || o.WriteBaseline
	needRecompiles := o.MaxRecompiles >= 0 || o.RanksAgree || o.Baseline != nil || o.WriteBaseline
	switch {
	case o.NoCompileAfterWarmup && afterWarmupUnjudged(a) != "":
		return afterWarmupUnjudged(a)
	case ev.NothingCompiled() != "" && (needBreaks || needRecompiles || o.MaxCompileTime > 0 || o.MaxCompileSkew > 0 || o.NoLimitHits || o.NoCompileErrors):
		if ev.CompileOff == "" {
			return triage.CompileOffWords(ev) + ": does the command reach torch.compile?"
		}
		return triage.CompileOffWords(ev) + ": gate a compiled run (--preset breaks)"
	case ev.NoGraphCompiled != "" && (needBreaks || needRecompiles):
		return ev.NoGraphCompiled + ": none of the program's code ran compiled, so no break or recompile in it could show: does the compiled call reach the model's code?"
	case o.NoLimitHits && ev.LogSilenced != "": // a hit prints through torch's logging, which the program silenced
		return "the log lacks what the probe counted (" + ev.LogSilenced + "): limit hits cannot be known from it"
	case (needBreaks || o.NoCompileErrors) && probeMismatch(a) != nil:
		return "the log does not show what the probe counted (" + probeMismatch(a).Title + "): the log cannot be gated on"
	case needBreaks && needRecompiles && !ev.GraphBreaksLogged && !ev.RecompilesLogged:
		return "no graph_breaks/recompiles records and " + ev.AskedWords("graph_breaks or recompiles") + ": run with --preset breaks (TORCH_LOGS=graph_breaks,recompiles)"
	case needBreaks && !ev.GraphBreaksLogged:
		return "no graph_breaks records and " + ev.AskedWords("graph_breaks") + ": run with --preset breaks (TORCH_LOGS=graph_breaks,recompiles)"
	case needRecompiles && !ev.RecompilesLogged:
		return "no recompiles records and " + ev.AskedWords("recompiles") + ": run with --preset breaks (TORCH_LOGS=graph_breaks,recompiles)"
	case (o.NoCudagraphSkips || o.MaxCudagraphRerecords != nil) && !triage.CudagraphsLogged(a):
		return "no cudagraphs records and " + ev.AskedWords("cudagraphs") + " (partitions and re-recordings print only with it): run with --preset cudagraphs"
	case o.MaxCudagraphRerecords != nil && a.Report.Counts.CudagraphRerecordsUnknown && a.Report.Counts.CudagraphRerecords <= *o.MaxCudagraphRerecords:
		return "CUDA-graph re-recordings not known: the input has " + report.Plural(a.Report.Counts.CudagraphRerecordChecks, "failed re-record check") +
			" (\"Re-recording function=\" lines) but not the \"Recording function=\" lines that tell how many recordings followed (is it cut?)"
	case o.NoCudagraphSkips && a.PartitionsHidden() != "":
		return a.PartitionsHidden()
	case o.MaxCompileSkew > 0 && (a.Report.Compile == nil || a.Report.Compile.TotalS == nil):
		return "no compile time in the inputs: run with TORCH_TRACE (--preset trace) or the probe"
	case o.MaxCompileTime > 0 && !compileTimeKnown(a.Report):
		return "no compile time in the inputs: run with TORCH_TRACE (--preset trace) or the probe"
	case o.Baseline != nil && len(o.Baseline.Compile) > 0 && (a.Report.Compile == nil || a.Report.Compile.TotalS == nil):
		return "--baseline: the baseline holds compile time per frame, and the input has none to compare: run with " +
			"TORCH_TRACE (--preset trace) or the probe, as the baseline's run was"
	case o.Baseline != nil && len(o.Baseline.Compile) > 0 && len(BaselineFrames(a.Report.Compile)) == 0:
		return "--baseline: the baseline holds compile time per frame, and the input has only a total (the probe's), " +
			"none per frame: run with TORCH_TRACE (--preset trace), as the baseline's run was"
	case o.MaxCompileSkew > 0 && !hasSkew(a.Report.Compile):
		return "--max-compile-skew: fewer than two ranks with compile time in the input: nothing to compare"
	case o.RanksAgree && len(ev.Ranks) < 2:
		return ranksAlone(a)
	case o.RanksAgree && a.RankAgreement.NotCompared != "": // ranks there, but nothing says they agree
		return "--ranks-agree: " + a.RankAgreement.Summary
	}
	return ""
}

// hasSkew reports compile times of two ranks or more (CompileReport.SlowFast).
func hasSkew(c *report.CompileReport) bool {
	_, _, ok := c.SlowFast()
	return ok
}

// probeMismatch is the first finding of breaks the probe counted that the log does not show, nil when none.
func probeMismatch(a *triage.Analysis) *findings.Finding {
	return triage.CountFindings(a.Findings).FirstProbeMismatch
}

// ranksAlone says why --ranks-agree has nothing to compare: one process, or one rank of a job, agrees with
// nothing (RankAgree calls that agreeing; a gate must not pass on it).
func ranksAlone(a *triage.Analysis) string {
	who := "the input shows"
	switch {
	case a.Run != nil:
		who = "the run shows"
	case len(a.Report.Inputs) > 1:
		who = "the " + strconv.Itoa(len(a.Report.Inputs)) + " inputs show"
	}
	switch r := a.Evidence.Ranks; {
	case len(r) == 0 && a.Evidence.Processes > 1: // torch's lines name several pids, none a rank
		return fmt.Sprintf("--ranks-agree compares ranks, and %s %d processes whose lines carry no rank prefix: which "+
			"rank each is is not known (a torchrun or srun job's lines carry [rankN]: or N: prefixes)", who, a.Evidence.Processes)
	case len(r) == 1 && a.Run != nil: // the tool captured every process's output itself
		return fmt.Sprintf("--ranks-agree compares ranks, and %s only rank %d: nothing to compare (one rank ran, or "+
			"the others printed no rank-tagged line)", who, r[0])
	case len(r) == 1:
		return fmt.Sprintf("--ranks-agree compares ranks, and %s only rank %d: were the other ranks' logs captured "+
			"(torchrun --tee 3, or every rank's file of --log-dir)?", who, r[0])
	}
	return "--ranks-agree compares ranks, and " + who + " one process: nothing to compare (a torchrun or srun " +
		"job's lines carry [rankN]: or N: prefixes)"
}

// rerecordsAfterWarmup is --max-cudagraph-rerecords N when a warm-up is named (--no-compile-after-warmup, or the
// run's or check's --warmup-steps) and the probe's steps place the recordings: the CUDA-graph recordings each
// compiled graph (compile id) made at or past the warm-up, each graph's count against N, failing on the
// compile_after_warmup finding that holds it. It reports whether it judged; otherwise the whole run's
// re-recordings are counted (stricter: a recording in warm-up counts too).
func (res *Result) rerecordsAfterWarmup(a *triage.Analysis, o Options, rule string, limit int) bool {
	aw := a.AfterWarmup
	named := o.NoCompileAfterWarmup || a.Run != nil && a.Run.WarmupSteps != nil
	if !named || !aw.Judged() || aw.StepSource == steady.StepsLog {
		return false
	}
	res.SteadyState = cmp.Or(res.SteadyState, aw.Summary()) // what was judged, said on a pass too
	for i := range a.Findings {
		f := &a.Findings[i]
		if f.Kind != findings.KindCompileAfterWarmup || !strings.HasPrefix(f.ID, "compile_after_warmup:"+steady.Cudagraph+":") {
			continue
		}
		per := map[string]int{}
		for _, id := range f.CompileIDs {
			per[id]++
		}
		for _, id := range slices.Sorted(maps.Keys(per)) {
			if per[id] > limit {
				res.fail(rule, fmt.Sprintf("%s of graph %s after warm-up (%s) > %d", report.Plural(per[id], "CUDA-graph recording"), id, aw.Warmup(), limit), f)
				break
			}
		}
	}
	return true
}

func compileTimeKnown(r *report.Report) bool {
	_, _, ok := CompileTotal(r)
	return ok
}

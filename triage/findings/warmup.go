package findings

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/guard"
	"github.com/torchtriage/torchtriage/triage/probe"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/steady"
	"github.com/torchtriage/torchtriage/triage/text"
)

// warmupReasons are the words a compile after warm-up that no guard explains is matched to its playbook by
// (playbooks/builtin: warmup-*).
var warmupReasons = map[string]string{
	steady.Compile:      "new frame after warm-up",
	steady.Backward:     "backward after warm-up",
	steady.Cudagraph:    "cuda graph recording after warm-up",
	steady.JIT:          "kernel jit compile during inference",
	steady.GraphCompile: "serving graph compile after warm-up",
	steady.LoadFailure:  "serving load failure recompile after warm-up",
}

// WarmupFindings are the compiles after warm-up (steady.AfterWarmup), one finding a cause (steady.Group: kind,
// frame and guard), each with the playbook of its guard or kind.
func WarmupFindings(a *steady.AfterWarmup, set *playbooks.Set, probes []report.ProcessInfo) []Finding {
	if a == nil || !a.Judged() {
		return nil
	}
	skipDynamic := slices.ContainsFunc(probes, func(p report.ProcessInfo) bool {
		v, ok := p.Config[SkipDynamicGraphsKey].(bool)
		return ok && v
	})
	var fs []Finding
	for _, g := range steady.Group(a.Events) {
		e := g[0]
		f := Finding{Kind: KindCompileAfterWarmup, What: warmupWhat(a, g), Records: len(g), Function: e.Frame,
			Evidence: []report.Evidence{}, RankStats: map[int]report.RankStat{}, Basis: "probe: " + stepBasis(a)}
		if e.Source == steady.SourceLog { // no step: the line's place in the log orders it
			f.Basis = "log: " + e.Order
		}
		f.File, f.Line = logparse.SplitSite(e.Site)
		// kind, frame and its site, guard: the cause, stable across runs (no step, rank or time in it)
		f.ID = "compile_after_warmup:" + e.Kind + ":" + e.Frame
		if f.File != "" {
			f.ID += "@" + filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
		}
		if e.Guard.Class != "" {
			f.ID += ":" + e.Guard.Class + ":" + e.Guard.Source
			if e.Guard.Dim >= 0 {
				f.ID += "[" + strconv.Itoa(e.Guard.Dim) + "]"
			}
		}
		for _, x := range g {
			st := f.RankStats[x.Rank]
			f.RankStats[x.Rank] = report.StatN(st.N + 1)
			if x.CompileID != "" {
				f.CompileIDs = append(f.CompileIDs, x.CompileID)
			}
			if f.File != "" && len(f.Evidence) < report.MaxEvidence {
				f.Evidence = append(f.Evidence, report.Evidence{Rank: x.Rank, File: f.File, Line: f.Line})
			} else if x.Source == steady.SourceLog && len(f.Evidence) < report.MaxEvidence { // the line itself
				f.Evidence = append(f.Evidence, report.Evidence{Rank: x.Rank, Input: x.Input, InputLine: x.Line})
			}
		}
		if e.Guard.Class != "" {
			f.Classes = []guard.Class{e.Guard}
		}
		f.Ranks = RanksOf(f.RankStats)
		f.Title = text.OneLine("Compiled after warm-up: "+a.GroupWords(g), 2*text.TitleMax)
		f.Detail = warmupDetail(a, g)
		if e.Kind == steady.Cudagraph && skipDynamic { // the setting meant to stop per-size recordings, and yet
			f.Title = text.OneLine("Compiled after warm-up: "+a.GroupWords(g)+", with cudagraph_skip_dynamic_graphs on", 2*text.TitleMax)
			f.Detail += "\n" + skipDynamicWords
		}
		q := playbooks.Query{Kind: KindCompileAfterWarmup, GuardClass: e.Guard.Class, Reason: e.Reason}
		if w, ok := warmupReasons[e.Kind]; ok {
			q.Reason = w
		}
		ApplyPlaybook(&f, MatchPlaybook(set, q))
		f.Key = f.ID
		fs = append(fs, f)
	}
	return fs
}

// SkipDynamicGraphsKey is the probe's config key of torch._inductor.config.triton.cudagraph_skip_dynamic_graphs.
const SkipDynamicGraphsKey = "inductor.triton.cudagraph_skip_dynamic_graphs"

// skipDynamicWords says why CUDA graphs still record with cudagraph_skip_dynamic_graphs on (gpu-cuda-graphs-2.11.md
// §1–2: the setting leaves out only graphs whose inputs have symbolic shapes).
const skipDynamicWords = "The probe read torch._inductor.config.triton.cudagraph_skip_dynamic_graphs = True in this run, yet CUDA " +
	"graphs were recorded after warm-up. The setting leaves out of CUDA graphs only a graph whose inputs have symbolic " +
	"shapes (logged as a partition `reason=dynamic shape ops`, or before 2.9 `skipping cudagraphs due to graph with " +
	"symbolic shapes inputs`); a graph compiled for one static size (a recompile per size, dynamic=False, " +
	"mark_static) records a CUDA graph of its own for each size, and a changed static input records again."

// stepBasis says which clock placed the compiles: "steps counted from SGD.step()", "steps from the marker".
func stepBasis(a *steady.AfterWarmup) string {
	switch a.StepSource {
	case probe.StepsOptimizer:
		if a.Optimizer != "" {
			return "steps counted from " + a.Optimizer + ".step() calls"
		}
		return "steps counted from optimizer.step() calls"
	case probe.StepsMarker:
		return fmt.Sprintf("steps read from the output by the step marker %q", a.StepMarker)
	}
	return "seconds since the process started"
}

// warmupWhat is the list row's label: "size x 8→5 @30", "new frame f @12".
func warmupWhat(a *steady.AfterWarmup, g []steady.Event) string {
	e := g[0]
	at := " @" + strconv.Itoa(e.Step)
	if e.Source == steady.SourceLog {
		at = " @line " + strconv.Itoa(e.Line)
	} else if a.Unit() == "s" {
		at += "s"
	}
	switch {
	case e.Kind == steady.Recompile && e.Guard.Detail != "":
		return e.Guard.Detail + at
	case e.Kind == steady.Recompile:
		return "recompile " + e.Frame + at
	case e.Kind == steady.Compile:
		return "new frame " + e.Frame + at
	case e.Kind == steady.JIT:
		return "JIT " + e.Frame + at
	case e.Kind == steady.GraphCompile:
		return "graph " + e.Frame + at
	case e.Kind == steady.LoadFailure:
		return "model compiled again" + at
	}
	return playbooks.WordsOf(KindCompileAfterWarmup).One + at
}

// warmupDetail is each event: rank, step, compile id, frame and site, the guard failure in torch's words.
func warmupDetail(a *steady.AfterWarmup, g []steady.Event) string {
	var b strings.Builder
	if g[0].Source == steady.SourceLog { // a serving framework's lines: no step, their place in the log
		fmt.Fprintf(&b, "Warm-up: %s; the log gives no step: %s.\n", a.Warmup(), g[0].Order)
		for _, e := range g {
			if e.Rank >= 0 {
				fmt.Fprintf(&b, "rank %d, ", e.Rank)
			}
			fmt.Fprintf(&b, "%s line %d: %s\n", filepath.Base(e.Input), e.Line, e.Reason)
		}
		return strings.TrimRight(b.String(), "\n")
	}
	fmt.Fprintf(&b, "Warm-up: %d %ss; steps: %s.\n", a.WarmupSteps, a.Unit(), stepBasis(a))
	for _, e := range g {
		who := fmt.Sprintf("rank %d, ", e.Rank)
		if e.Rank < 0 {
			who = ""
		}
		fmt.Fprintf(&b, "%s%s %d (%.1f s in): %s [%s] `%s`", who, a.Unit(), e.Step, e.TimeS, e.Kind, e.CompileID, e.Frame)
		if e.Site != "" {
			b.WriteString(" at " + e.Site)
		}
		if e.Backward {
			b.WriteString(", and its backward")
		}
		b.WriteString("\n")
		if e.Reason != "" {
			b.WriteString("  guard failed: " + e.Reason + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

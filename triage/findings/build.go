package findings

import (
	"slices"
	"sort"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// Input is what the finding builders read: the report, its detail (what the aggregator kept of each break and
// recompile group), the playbooks, the probe files, and how an item's ranks are worded.
type Input struct {
	Report *report.Report
	Snap   *report.DetailSnap
	Set    *playbooks.Set
	Probes []report.ProcessInfo
	// Groups are the recompile groups to make findings of (the snapshot's, automatic dynamic taken out on ranks
	// whose probe recorded it off); Recompiling holds "file\x00function" of each.
	Groups      []*report.GroupSnap
	Recompiling map[string]bool
	RankWords   func([]int) string
}

// A Builder makes the findings of one kind from the input; before holds the findings the builders ahead of it
// made (limit hits name, and mark, the recompile finding of their frame).
type Builder struct {
	Name  string
	Build func(in *Input, before []Finding) []Finding
}

// Builders are the finding builders, in the order their findings are listed before sorting (ids made unique in
// that order): every finding a report yields comes from one of them. Findings that need rank agreement or the
// run (rank disagreement, probe mismatches, config parity, compile time and caches) are made after it, by
// triage.AnalyzeRun.
func Builders() []Builder {
	return []Builder{
		{"graph breaks", breakFindings},
		{"recompiles", recompileFindings},
		{"recompile limit hits", limitFindings},
		{"CUDA-graph skips", skipFindings},
		{"GPU: partitions, re-records, warnings", func(in *Input, _ []Finding) []Finding {
			return GpuFindings(in.Report, in.Snap, in.Set, in.RankWords)
		}},
		{"DDP graph splits", func(in *Input, _ []Finding) []Finding {
			return DdpSplitFindings(in.Report.DDPSplits, in.Set, in.RankWords)
		}},
		{"compile errors", func(in *Input, _ []Finding) []Finding {
			return ErrorFindings(withoutAccuracy(in.Report.ErrorEvents()), KindCompileError, in.Set, in.Report.FirstFailure)
		}},
		{"runtime errors", func(in *Input, _ []Finding) []Finding {
			return ErrorFindings(withoutAccuracy(in.Report.RuntimeErrorEvents()), KindRuntimeError, in.Set, in.Report.FirstFailure)
		}},
		{"wrong results (the accuracy check)", accuracyFindings},
		{"caught compile errors", func(in *Input, _ []Finding) []Finding {
			return ErrorFindings(CaughtCompiles(in.Report.ExceptionEvents()), KindCompileError, in.Set, nil)
		}},
		{"fatal recompiles", fatalRecompiles},
	}
}

// Build runs every builder over the input and makes the ids unique.
func Build(in *Input) []Finding {
	var fs []Finding
	for _, b := range Builders() {
		fs = append(fs, b.Build(in, fs)...)
	}
	UniqueIDs(fs)
	return fs
}

// breakFindings makes a finding of each distinct graph break, on every core (thousands in a big run).
func breakFindings(in *Input, _ []Finding) []Finding {
	rep := in.Report
	fs := make([]Finding, len(rep.GraphBreaks))
	report.InParallel(len(fs), 64, func(from, to int) {
		words, m := report.LastRankWords(in.RankWords), &BreakMatcher{Set: in.Set} // one a chunk: goroutines share none
		for i := from; i < to; i++ {
			fs[i] = BreakFinding(rep.GraphBreaks[i], in.Snap, m, in.Recompiling, words, in.Probes)
		}
	})
	return fs
}

// recompileFindings makes a finding of each recompile group, on every core, in the order of their ids.
func recompileFindings(in *Input, _ []Finding) []Finding {
	fs := make([]Finding, len(in.Groups))
	report.InParallel(len(in.Groups), 64, func(from, to int) {
		words := report.LastRankWords(in.RankWords)
		for i := from; i < to; i++ {
			fs[i] = RecompileFinding(in.Groups[i], in.Set, words, in.Probes)
		}
	})
	sort.Slice(fs, func(i, j int) bool { return fs[i].ID < fs[j].ID })
	return fs
}

// limitFindings makes a finding of each recompile-limit hit, joined to the recompile finding of its frame, which
// it marks in place (the recompile builder's run of findings in before).
func limitFindings(in *Input, before []Finding) []Finding {
	from := slices.IndexFunc(before, func(f Finding) bool { return f.Kind == KindRecompile })
	to := from
	for from >= 0 && to < len(before) && before[to].Kind == KindRecompile {
		to++
	}
	var recomps []Finding
	if from >= 0 {
		recomps = before[from:to]
	}
	return LimitFindings(in.Report.LimitEvents(), recomps, in.Set)
}

// skipFindings makes a finding of each distinct CUDA-graph skip.
func skipFindings(in *Input, _ []Finding) []Finding {
	var fs []Finding
	for _, s := range in.Report.CudagraphSkips {
		fs = append(fs, SkipFinding(s, in.Snap, in.Set, in.RankWords))
	}
	return fs
}

// CaughtCompiles is the compile errors among the exceptions the program caught.
func CaughtCompiles(events []report.ErrorSummary) []report.ErrorSummary {
	var out []report.ErrorSummary
	for _, e := range events {
		if e.Caught && e.Compile {
			out = append(out, e)
		}
	}
	return out
}

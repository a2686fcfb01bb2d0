package triage

import (
	"fmt"
	"strconv"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// SkipsNotLogged says why CUDA-graph skips were not logged (Evidence.CudagraphSkipsLogged false); "" when they were.
func (a *Analysis) SkipsNotLogged() string {
	if a.Evidence.CudagraphSkipsLogged {
		return ""
	}
	v := ""
	if a.Run != nil {
		v = a.Run.TorchVersion
	}
	if a.Report.TorchVersion != nil && *a.Report.TorchVersion != "" {
		v = *a.Report.TorchVersion
	}
	if v != "" {
		return "torch " + v + " prints them only with TORCH_LOGS perf_hints or cudagraphs"
	}
	return "the torch version is not known: 2.11 and later print them under any TORCH_LOGS, 2.6 only with perf_hints or cudagraphs"
}

// BreaksCounted reports whether the graph-break count stands: some were seen, or they were logged (a 0 of a kind
// that was not logged would claim there were none). RecompilesCounted is the same for recompiles.
func (a *Analysis) BreaksCounted() bool {
	return a.Report.Counts.GraphBreaks > 0 || a.Evidence.GraphBreaksLogged
}

func (a *Analysis) RecompilesCounted() bool {
	return a.Report.Counts.Recompiles > 0 || a.Evidence.RecompilesLogged
}

// BreaksFloor reports a graph-break count that is a floor: some printed while graph_breaks was off (a
// Tensor.item() warning prints without it, other breaks do not). RecompilesFloor is the same for recompiles.
func (a *Analysis) BreaksFloor() bool {
	return a.Report.Counts.GraphBreaks > 0 && !a.Evidence.GraphBreaksLogged
}

func (a *Analysis) RecompilesFloor() bool {
	return a.Report.Counts.Recompiles > 0 && !a.Evidence.RecompilesLogged
}

// BreaksText words the graph-break count for the counts lines: "graph breaks 3 distinct (7 records)", or "graph
// breaks not logged" (BreaksCounted; BreaksValue).
func (a *Analysis) BreaksText() string { return "graph breaks " + a.BreaksValue() }

// BreaksValue is the words of the graph-break count after its label (the Markdown table's cell): "3 distinct (7
// records)"; where no count stands, "not logged" (the run's TORCH_LOGS left graph_breaks out) or "unknown (no sign
// graph_breaks was on)" (logs alone).
func (a *Analysis) BreaksValue() string {
	c := a.Report.Counts
	switch {
	case !a.BreaksCounted():
		return unloggedValue(a.Evidence.LoggingOf(false), "graph_breaks")
	case a.BreaksFloor():
		return fmt.Sprintf("at least %d distinct (%s; graph_breaks %s)", c.GraphBreaks, report.Plural(c.GraphBreakRecords, "record"), a.Evidence.FloorWords())
	}
	return a.FloorIfUnfinished(fmt.Sprintf("%d distinct (%s)", c.GraphBreaks, a.FloorIfUnfinished(report.Plural(c.GraphBreakRecords, "record"))))
}

// CountsAreFloors says every count is a floor ("≥3"): the run did not complete (Unfinished: stopped, still running,
// a process died), and what it would have printed after is not in the input. The report's counts (text, Markdown,
// per rank), the bring-up log and the TUI (story.RulesOf) all floor them by it.
func (a *Analysis) CountsAreFloors() bool { return a.Unfinished() != "" }

// floorIfUnfinished is count as a floor where CountsAreFloors.
func (a *Analysis) FloorIfUnfinished(count string) string {
	if a.CountsAreFloors() {
		return report.Floor(count)
	}
	return count
}

func unloggedValue(lg report.Logging, name string) string {
	if lg != report.LoggingUnknown {
		return lg.Words()
	}
	return lg.Words() + " (no sign " + name + " was on)"
}

// RecompilesText words the recompile count the same way: "recompiles 7", or "recompiles not logged".
func (a *Analysis) RecompilesText() string { return "recompiles " + a.RecompilesValue() }

// RecompilesValue is the recompile count's words after its label, as BreaksValue.
func (a *Analysis) RecompilesValue() string {
	switch n := a.Report.Counts.Recompiles; {
	case !a.RecompilesCounted():
		return unloggedValue(a.Evidence.LoggingOf(false), "recompiles")
	case a.RecompilesFloor():
		return fmt.Sprintf("at least %d (recompiles %s)", n, a.Evidence.FloorWords())
	default:
		return a.FloorIfUnfinished(strconv.Itoa(n))
	}
}

// UncountedWhy says why the count of graph breaks or recompiles is no evidence ("recompiles were not logged
// (TORCH_LOGS)"; for logs alone, which show no record of them and no line tagged with their name, "no sign
// recompiles were logged (TORCH_LOGS)"), "" when it stands: the TUI's empty pane.
func (a *Analysis) UncountedWhy(k findings.Kind) string {
	counted, what := a.BreaksCounted(), "graph breaks"
	if k == findings.KindRecompile {
		counted, what = a.RecompilesCounted(), "recompiles"
	}
	if counted {
		return ""
	}
	lg := a.Evidence.LoggingOf(false)
	return lg.Absent(what) + lg.Cause() + a.resumeHint(k)
}

// LimitHitsValue is the recompile-limit hit count's words after its label: a limit hit prints whatever TORCH_LOGS
// says, but not through a log the program silenced ("not in the log"; a count of those that printed is a floor).
func (a *Analysis) LimitHitsValue() string {
	n := a.Report.Counts.RecompileLimitHits
	switch {
	case a.Evidence.LogSilenced == "":
		return a.FloorIfUnfinished(strconv.Itoa(n))
	case n == 0:
		return report.LoggingSilenced.Words()
	}
	return "at least " + strconv.Itoa(n)
}

// CudagraphSkipsText words the skip count of a report: "cudagraph skips 2", or "cudagraph skips not logged"
// where a zero would be no evidence.
func (a *Analysis) CudagraphSkipsText() string { return "cudagraph skips " + a.CudagraphSkipsValue() }

// CudagraphSkipsValue is the skip count's words after its label: for logs alone where a zero would be no
// evidence, "unknown" (SkipsNotLogged says why).
func (a *Analysis) CudagraphSkipsValue() string {
	if a.SkipsCounted() {
		return a.FloorIfUnfinished(strconv.Itoa(a.Report.Counts.CudagraphSkips))
	}
	return a.Evidence.LoggingOf(false).Words()
}

// SkipsCounted reports whether the CUDA-graph skip count is evidence: skips were seen, or they could print.
func (a *Analysis) SkipsCounted() bool {
	return a.Report.Counts.CudagraphSkips > 0 || a.Evidence.CudagraphSkipsLogged
}

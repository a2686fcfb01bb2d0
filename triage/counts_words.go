package triage

import (
	"fmt"
	"strconv"

	"github.com/torchtriage/torchtriage/triage/report"
)

// RuntimeErrorsValue is the runtime-error count's words after its label: a floor where the run did not complete.
func (an *Analysis) RuntimeErrorsValue() string {
	return an.FloorIfUnfinished(strconv.Itoa(an.Report.Counts.RuntimeErrors))
}

// CountsItems are the report's counts line, an item each ("recompiles 2", "limit hits 1", "compile errors 1"):
// the text report, the Markdown and the TUI's timeline word the counts from here. Where nothing was counted, the
// one phrase that says why (Uncounted) stands for them, and the runtime errors where there are some.
func (an *Analysis) CountsItems() []string {
	c := an.Report.Counts
	counts := []string{an.BreaksText(), an.RecompilesText(), "limit hits " + an.LimitHitsValue(),
		an.CudagraphSkipsText(), "compile errors " + an.CompileErrorsValue(),
		"runtime errors " + an.RuntimeErrorsValue()}
	if c.CudagraphPartitions > 0 || c.CudagraphRerecords > 0 || c.CudagraphRerecordChecks > 0 {
		counts = append(counts, fmt.Sprintf("non-cudagraphable partitions %d", c.CudagraphPartitions), report.RerecordsText(c))
	}
	if none := an.Uncounted(); none != "" { // its zeros count nothing
		counts = []string{none}
		if c.RuntimeErrors > 0 {
			counts = append(counts, "runtime errors "+an.RuntimeErrorsValue())
		}
	}
	return counts
}

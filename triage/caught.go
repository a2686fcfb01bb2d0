package triage

import (
	"fmt"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// CaughtCompileErrors is how many compile errors the program caught and went on after (findings marked Caught):
// the counts line's "compile errors 0 (1 caught)".
func (a *Analysis) CaughtCompileErrors() int {
	n := 0
	for _, f := range a.Findings {
		if f.Kind == findings.KindCompileError && f.Caught {
			n += f.Records
		}
	}
	return n
}

// CompileErrorsValue words the compile-error count after its label: the processes that died of one, and the
// ones the program caught ("0 (1 caught)").
func (a *Analysis) CompileErrorsValue() string {
	return a.FloorIfUnfinished(report.Itoa(a.Report.Counts.CompileErrors)) + CaughtSuffix(a.CaughtCompileErrors())
}

// CaughtSuffix follows a compile-error count with the ones the program caught: " (1 caught)", "" for none. The
// report, the gate and the bringup log all word it so.
func CaughtSuffix(n int) string {
	if n == 0 {
		return ""
	}
	return " (" + report.Itoa(n) + " caught)"
}

// CaughtText words an exception the program caught and went on after (ErrorSummary.Caught), as the report, and
// the TUI's main screen, show it: "Caught ×1 single process RuntimeError: backend exploded (the program went on:
// no process died of it)".
func (an *Analysis) CaughtText(e *report.ErrorSummary) string {
	why := "the program went on: no process died of it"
	if e.Compile {
		why = "the program went on, but torch.compile failed for this frame"
	}
	return fmt.Sprintf("Caught ×%d %s %s: %s (%s)", e.Records, an.Evidence.ItemRanks(e.Ranks), e.Class,
		text.OneLine(report.ErrorGist(e.Message), text.EvidenceMax), why)
}

package findings

import (
	"fmt"
	"strings"

	"github.com/torchtriage/torchtriage/playbooks"
	"github.com/torchtriage/torchtriage/triage/report"
)

// AccuracyErrorClass is the exception PyTorch's accuracy check raises when a compiled graph's result differs
// from eager's beyond tolerance (TORCHDYNAMO_REPRO_LEVEL=4; torch/_dynamo/debug_utils.py, 2.6 and 2.14).
const AccuracyErrorClass = "torch._dynamo.debug_utils.AccuracyError"

// IsAccuracyError says an error is the accuracy check's verdict: AccuracyError raised itself (after aot, and a
// minified repro.py), or inside BackendCompilerFailed (after dynamo, where 2.6 checks at compile time). Matched by
// the exception class, never by message words.
func IsAccuracyError(e report.ErrorSummary) bool {
	return e.Class == AccuracyErrorClass || e.Class == "AccuracyError" || strings.HasSuffix(e.Class, ".AccuracyError") ||
		e.Inner == "AccuracyError"
}

// withoutAccuracy are the errors that are not the accuracy check's (those are accuracy findings).
func withoutAccuracy(errs []report.ErrorSummary) []report.ErrorSummary {
	var out []report.ErrorSummary
	for _, e := range errs {
		if !IsAccuracyError(e) {
			out = append(out, e)
		}
	}
	return out
}

// accuracyFindings makes one finding of a wrong result per place the accuracy check failed: a HIGH finding, never
// a pass; the process died of the check's exception, not of a fault in the program.
func accuracyFindings(in *Input, _ []Finding) []Finding {
	var errs []report.ErrorSummary
	for _, e := range append(append([]report.ErrorSummary(nil), in.Report.RuntimeErrorEvents()...), in.Report.ErrorEvents()...) {
		if IsAccuracyError(e) {
			errs = append(errs, e)
		}
	}
	key := func(e report.ErrorSummary) string { return e.Class + "\x00" + e.File + fmt.Sprint(e.Line) }
	_, out := groupErrors(errs, key, func(e report.ErrorSummary) *Finding { return newAccuracyFinding(e, in.Set) })
	return out
}

func newAccuracyFinding(e report.ErrorSummary, set *playbooks.Set) *Finding {
	f := &Finding{Kind: KindAccuracy, Severity: "high", File: e.File, Line: e.Line, What: "AccuracyError",
		RankStats: map[int]report.RankStat{}}
	ApplyPlaybook(f, MatchPlaybook(set, playbooks.Query{Kind: KindAccuracy, ErrorClass: AccuracyErrorClass, Reason: e.Message}))
	f.Severity, f.Category, f.Expected = "high", CategoryFix, false
	f.ID = string(KindAccuracy) + ":" + e.Class
	if e.Inner != "" {
		f.ID += "/" + e.Inner
	}
	f.Key = f.ID
	where := ""
	if e.File != "" {
		where = fmt.Sprintf(" (at %s:%d)", shortFile(e.File), e.Line)
	}
	f.Title = "Compiled result is wrong: PyTorch's accuracy check raised AccuracyError" + where
	var d strings.Builder
	fmt.Fprintf(&d, "%s: %s", e.Class, e.Message)
	if e.Inner != "" {
		fmt.Fprintf(&d, "\nInner error: %s (the check ran at compile time, inside the backend: after dynamo)", e.Inner)
	}
	if e.File != "" {
		fmt.Fprintf(&d, "\nAt %s:%d", e.File, e.Line)
	}
	d.WriteString("\nWhat: PyTorch's accuracy check (TORCHDYNAMO_REPRO_LEVEL=4) ran a compiled graph next to an fp64 " +
		"eager reference and found its output further from it than eager's: the compiled model computes a wrong " +
		"result.\nWhy it matters: nothing crashed by itself; without the check the program would have gone on " +
		"with wrong numbers. The process stopped because the check raised, not because of a fault in the program." +
		"\nDo: find the first backend that is wrong (torchtriage ladder --check-accuracy -- CMD), shrink the graph " +
		"with the minifier launcher torch wrote, and report it with torchtriage bundle." +
		"\nVerify: the same run with the check on ends without AccuracyError.")
	f.Detail = d.String()
	return f
}

func shortFile(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

package triage_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/logparse/trace"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// Issue 38, class 5: a limit hit known only from a TORCH_TRACE names what the trace knows of the limit: 2.6's
// fail_reason "cache_size_limit reached" the limit without its value, 2.14's both; every rendering says so, never
// "hit config. (0)" (LimitWords also words a hit inferred from recompile reasons alone: neither known).
func TestTraceLimitHitNamesWhatItKnows(t *testing.T) {
	for dir, want := range map[string]string{
		"torch-2.6/gb_recompile.trace":  "config.cache_size_limit (its value is not in the input)",
		"torch-2.6/r12_limit_str.trace": "config.cache_size_limit (its value is not in the input)",
		"torch-2.14/gb_recompile.trace": "config.recompile_limit (3, not the default 8)",
	} {
		a := triagetest.ReportPaths(t, testlogs.Path(t, "fixtures", dir))
		for _, format := range []string{"text", "markdown", "json"} {
			out := strings.Join(strings.Fields(triagetest.Render(t, a, format, 200)), " ")
			if strings.Contains(out, "config. (") || strings.Contains(out, "(0)") {
				t.Errorf("%s, %s: says a limit it does not know: %s", dir, format, out)
			}
			if format != "json" && !strings.Contains(out, "hit "+want) {
				t.Errorf("%s, %s: no %q", dir, format, "hit "+want)
			}
		}
	}
}

// Issue 38, class 5: a rank killed mid-compile leaves a TORCH_TRACE that says "rank": 0 in its envelopes and ends
// before its first compilation_metrics: the rank stays one of the run's, and since what it had not reached is no
// evidence, the input is partial and rank agreement not judged (no HIGH "ranks compile differently").
func TestTraceRankKilledMidCompile(t *testing.T) {
	a := triagetest.ReportPaths(t, testlogs.Path(t, "fixtures", "synthetic", "synthetic_trace_killed.torch-2.14"))
	if !slices.Equal(a.Report.Ranks, []int{0, 1}) {
		t.Errorf("ranks %v", a.Report.Ranks)
	}
	if !a.Evidence.Partial || !slices.ContainsFunc(a.Evidence.PartialReasons, func(r string) bool { return strings.HasPrefix(r, trace.CutMidCompile+" (in ") }) {
		t.Errorf("partial %v %q", a.Evidence.Partial, a.Evidence.PartialReasons)
	}
	if a.RankAgreement.Disagree() || !strings.HasPrefix(a.RankAgreement.Summary, "not judged: the input is cut (") {
		t.Errorf("rank agreement %q", a.RankAgreement.Summary)
	}
}

// Issue 38, class 5: a frame Dynamo skipped after a graph break (a print in a loop under a context manager, real
// 2.14: its compilation_metrics says fail_type Unsupported, the process printed "done" and exited 0) is one graph
// break and no compile error, read from the trace alone or with the text log of the same run.
func TestTraceFrameSkippedAfterBreakIsNoCompileError(t *testing.T) {
	dir := testlogs.Path(t, "realtorch", "r23_skip_loop.trace")
	for _, in := range [][]string{{dir}, {dir, testlogs.Path(t, "realtorch", "r23_skip_loop.withtrace.log")}} {
		a := triagetest.ReportPaths(t, in...)
		c := a.Report.Counts
		if c.CompileErrors != 0 || c.GraphBreaks != 1 || a.Report.FirstFailure != nil {
			t.Errorf("%v: %d compile errors, %d breaks, first failure %+v", in, c.CompileErrors, c.GraphBreaks, a.Report.FirstFailure)
		}
	}
}

// Issue 38, class 5: a TORCH_TRACE cut after the dynamo_error artifact of a compile (the traceback of the error
// Dynamo raised: a backend that raises, real 2.14) and before its compilation_metrics never leaves the verdict
// "steady state": the logged error is the compile's failure, and the input is partial. The whole trace counts it
// once (compilation_metrics' fail_type and the artifact are one error).
func TestTraceLoggedDynamoErrorIsNoSteadyState(t *testing.T) {
	cut := triagetest.ReportPaths(t, testlogs.Path(t, "fixtures", "synthetic", "synthetic_trace_cut_error.torch-2.14"))
	if cut.Verdict.State == "steady" || strings.HasPrefix(cut.Verdict.Summary, "steady state") || !cut.Evidence.Partial {
		t.Errorf("cut: verdict %s %q, partial %v", cut.Verdict.State, cut.Verdict.Summary, cut.Evidence.Partial)
	}
	if n := cut.Report.Counts.CompileErrors; n != 1 {
		t.Errorf("cut: %d compile errors", n)
	}
	whole := triagetest.ReportPaths(t, testlogs.Path(t, "realtorch", "r24_backend_error.trace"))
	if n := whole.Report.Counts.CompileErrors; n != 1 || whole.Evidence.Partial {
		t.Errorf("whole: %d compile errors, partial %v", n, whole.Evidence.Partial)
	}
}

// Issue 38, "also": a report of several pasted files says of each cut file how it is cut: every partial-input
// reason names its input.
func TestSeveralPastedFilesSayEachCut(t *testing.T) {
	a := testlogs.Path(t, "fixtures", "synthetic", "synthetic_fragment.torch-2.14.log")
	b := testlogs.Path(t, "fixtures", "synthetic", "synthetic_cut_ranks.torch-2.14.log")
	ev := triagetest.ReportPaths(t, a, b).Evidence
	for _, want := range []string{
		"a graph-break record without its header or user frame (in " + a + ")",
		"guard failures without their `Recompiling function` header: 0/0: tensor 'x' size mismatch at index 0. expected 4, actual 8 (in " + b + ")",
	} {
		if !slices.Contains(ev.PartialReasons, want) {
			t.Errorf("no %q in %q", want, ev.PartialReasons)
		}
	}
}

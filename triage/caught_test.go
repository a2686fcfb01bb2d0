package triage_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/text"
)

// Real runs recorded for logparse (../logparse/testdata/realtorch/README.md).
func caughtFixture(name string) string {
	return filepath.Join("..", "logparse", "testdata", "realtorch", name)
}

// An exception the program caught, logged with logging.exception and went on after is no failure of the run:
// no first failure, no fatal error, and `check --no-compile-errors` passes; the process that logged an error and
// then raised it again did die of it. torch.compile's own exception (r23's fullgraph Unsupported) still means its
// frame did not compile: a compile-error finding marked caught, not a fatal one (TestCaughtCompileFailureIsNamed).
func TestCaughtExceptionIsNoFailure(t *testing.T) {
	a := analyzeRun(t, caughtFixture("r23_caught_logged.triage.log"), nil)
	c := a.Report.Counts
	if a.Report.FirstFailure != nil || a.Verdict.FirstFailure != "" || c.CompileErrors != 0 || c.RuntimeErrors != 0 {
		t.Errorf("caught: first failure %+v %q, %d compile errors, %d runtime errors", a.Report.FirstFailure,
			a.Verdict.FirstFailure, c.CompileErrors, c.RuntimeErrors)
	}
	fatal, caughtCompile := 0, 0
	for _, f := range append(triage.FindingsOf(a, findings.KindCompileError), triage.FindingsOf(a, findings.KindRuntimeError)...) {
		if f.Caught {
			caughtCompile++
		} else {
			fatal++
		}
	}
	if fatal != 0 || caughtCompile != 1 {
		t.Errorf("caught: %d fatal error findings, %d caught compile errors (want 0, 1: the Unsupported, not the RuntimeError)", fatal, caughtCompile)
	}
	if g := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileErrors: true}); !g.Passed {
		t.Errorf("caught: --no-compile-errors failed: %+v", g.Failures)
	}
	// what it went on doing is counted, and the caught exceptions are still listed as exceptions
	if c.GraphBreaks != 1 || c.Recompiles != 2 || len(a.Report.Exceptions) != 2 {
		t.Errorf("caught: %d breaks, %d recompiles, %d exceptions", c.GraphBreaks, c.Recompiles, len(a.Report.Exceptions))
	}
	var buf strings.Builder
	render.WriteReportText(&buf, a, text.Options{Width: 200})
	if strings.Contains(buf.String(), "First failure") {
		t.Errorf("caught: the text report names a first failure:\n%s", buf.String())
	}
	// and the text says what was caught, as the JSON does (caught: true)
	caught := 0
	for _, e := range a.Report.Exceptions {
		if e.Caught {
			caught++
			if !strings.Contains(buf.String(), "Caught ×1 single process "+e.Class+": ") {
				t.Errorf("caught: the text report does not show %s:\n%s", e.Class, buf.String())
			}
		}
	}
	if caught != 2 {
		t.Errorf("caught: %d of the exceptions say caught, want 2: %+v", caught, a.Report.Exceptions)
	}

	for _, c := range []struct{ name, want string }{
		{"r24_logged_reraise.triage.log", "the process failed: torch._dynamo.exc.Unsupported: Failed to trace builtin operator"},
		{"r25_exception_reraise.triage.log", "the process failed: RuntimeError: loss diverged"},
	} {
		a := analyzeRun(t, caughtFixture(c.name), nil)
		ff := a.Report.FirstFailure
		if ff == nil || ff.Of != 1 || !strings.HasPrefix(a.Verdict.FirstFailure, c.want) {
			t.Errorf("%s: first failure %+v %q, want %q", c.name, ff, a.Verdict.FirstFailure, c.want)
		}
		if g := gate.Check(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, NoCompileErrors: true}); g.Passed {
			t.Errorf("%s: --no-compile-errors passed", c.name)
		}
	}
}

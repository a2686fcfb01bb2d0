package gate

import (
	"bytes"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/report"
)

// A break-it test passes only on a crash: success, and a run the tool had to stop (a hang, a timeout), fail it,
// whatever torch printed; a crash is no "did not complete" (exit 3) and needs no torch output (exit 4).
func TestExpectCrash(t *testing.T) {
	one := 1
	for _, c := range []struct {
		name string
		run  *report.RunFacts
		exit int
		want string
	}{
		{"crash", &report.RunFacts{Outcome: report.OutcomeFailed, ExitCode: &one}, ExitPassed, "crashed as expected: exited with code 1"},
		{"success", &report.RunFacts{Outcome: report.OutcomeCompleted}, ExitFailed, "the command succeeded (exit 0): it was to crash"},
		{"hang", &report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "timed out after 30m0s"}, ExitFailed,
			"did not crash: torchtriage stopped it (timed out after 30m0s): a hang"},
		{"stalled", &report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "stalled: no output for 5m0s"}, ExitFailed,
			"did not crash: torchtriage stopped it (stalled"},
		{"did not start", &report.RunFacts{Outcome: report.OutcomeDidNotStart}, ExitDidNotComplete, "the run did not complete"},
	} {
		a := triage.AnalyzeRun(&report.Report{}, nil, nil, c.run)
		var out, errs bytes.Buffer
		got, err := Run(&out, &errs, Input{Analyze: func() *triage.Analysis { return a }}, RunOptions{
			Rules: Options{MaxGraphBreaks: -1, MaxRecompiles: -1, ExpectCrash: true}, Format: "text"})
		if err != nil || got.Exit != c.exit || !strings.Contains(out.String()+errs.String(), c.want) {
			t.Errorf("%s: exit %d (want %d), err %v\n%s%s", c.name, got.Exit, c.exit, err, out.String(), errs.String())
		}
		if c.exit == ExitPassed && (got.Result.Crashed == "" || !got.Result.Passed) {
			t.Errorf("%s: result %+v", c.name, got.Result)
		}
	}
}

package triage_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// optStepFinding is the finding of 2.6's `call_method OptimizerVariable(Adam) step [] {}` break in a report's
// JSON, with its basis.
type optStepFinding struct {
	trainFinding
	Severity string `json:"severity"`
	Basis    string `json:"basis"`
}

func optStepFindings(t *testing.T, dir string) []optStepFinding {
	t.Helper()
	js := triagetest.ReportJSON(t, dir)
	var rep struct {
		Findings []optStepFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	var out []optStepFinding
	for _, f := range rep.Findings {
		if strings.Contains(f.Detail, "call_method OptimizerVariable(Adam) step") {
			out = append(out, f)
		}
	}
	return out
}

// Runs recorded with the probe that looks at each live optimizer's step at exit (testdata/recorded/train-loop
// 0013-0016, real 2.6 and 2.14.1). The 2.6 break at opt.step() read "— inferred from the wording … (no wrapper
// named)" and counted against --max-graph-breaks 0 under an LR scheduler (0013, 0014) as with the program's own
// wrapper (0015): the probe saw which. Now the scheduler's is by design with the basis "probe: Adam.step wrapped
// by the LR scheduler", and not counted (as 2.14.1's GB0007 at the same call, 0016); the program's says whose
// function it is, and stays counted. Text, Markdown and JSON say the one basis.
func TestOptimizerStepWrapperProbe26(t *testing.T) {
	const sched = "probe: Adam.step wrapped by the LR scheduler"
	for _, c := range []struct {
		run, basis string
		expected   bool
		exit       int
	}{
		{"0013-breaks", sched, true, 0},
		{"0014-breaks", sched, true, 0},
		{"0015-breaks", "probe: Adam.step replaced by the program's counted_step (wrapped_step.py:13)", false, 1},
	} {
		dir := trainLoop(c.run)
		fs := optStepFindings(t, dir)
		if len(fs) != 1 {
			t.Fatalf("%s: %d opt.step breaks: %+v", c.run, len(fs), fs)
		}
		f := fs[0]
		if f.Playbook != "gb-optimizer-step-wrapped" || f.Basis != c.basis || f.Expected != c.expected {
			t.Errorf("%s: %+v", c.run, f)
		}
		if strings.Contains(f.Title, "inferred") || !strings.Contains(f.Title, c.basis) ||
			!strings.Contains(f.Detail, "Basis: "+c.basis) || !strings.Contains(f.Detail, "at exit, not at the break") {
			t.Errorf("%s: title %q\n%s", c.run, f.Title, f.Detail)
		}
		if c.expected && (f.Category != "expected" || f.Severity != "info" || !strings.Contains(f.Title, "by design (") ||
			!strings.Contains(f.Detail, "Not counted as a graph break")) {
			t.Errorf("%s: %+v", c.run, f)
		}
		if !c.expected && (f.Category != "consider" || strings.Contains(f.Title, "by design") ||
			!strings.Contains(f.Detail, "counted as a graph break")) {
			t.Errorf("%s: %+v", c.run, f)
		}
		code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}}, dir)
		if code != c.exit || (c.exit == 1) != strings.Contains(out, c.basis) {
			t.Errorf("%s: check --max-graph-breaks 0: exit %d, want %d\n%s", c.run, code, c.exit, out)
		}
		for _, format := range []string{"text", "markdown"} {
			out := triagetest.Render(t, triagetest.ReportPaths(t, dir), format, 80)
			if !strings.Contains(strings.Join(strings.Fields(out), " "), c.basis) || strings.Contains(out, "inferred from the wording") {
				t.Errorf("%s: %s report does not say %q:\n%s", c.run, format, c.basis, out)
			}
		}
	}
	// 2.14.1 (0016) needs none of it: its GB0007 names lr_scheduler.py, by design as before; the probe's scan
	// finds the scheduler's wrapper there too
	for _, f := range optStepFindings(t, trainLoop("0016-breaks")) {
		t.Errorf("0016: %+v", f)
	}
	fs, _ := trainFindings(t, trainLoop("0016-breaks"))
	for _, f := range fs {
		if strings.HasPrefix(f.ID, "graph_break:") && !f.Expected {
			t.Errorf("0016: %+v", f)
		}
	}
	if code, out, _ := check(t, gate.RunOptions{Rules: gate.Options{MaxGraphBreaks: 0, MaxRecompiles: -1}}, trainLoop("0016-breaks")); code != 0 {
		t.Errorf("0016: exit %d\n%s", code, out)
	}
	// without the probe's scan (0005, 0010, 0011: recorded before it) the break stays inferred, the guess labelled
	for _, run := range []string{"0005-recompiles", "0010-breaks", "0011-breaks"} {
		fs := optStepFindings(t, trainLoop(run))
		if len(fs) != 1 || !strings.HasPrefix(fs[0].Basis, "inferred from the wording") || fs[0].Expected ||
			!strings.Contains(fs[0].Title, fs[0].Basis) {
			t.Errorf("%s: %+v", run, fs)
		}
	}
}

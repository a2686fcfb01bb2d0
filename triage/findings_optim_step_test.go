package triage

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
)

// The 2.6 opt.step break of testdata/recorded/train-loop 0011 (no rank prefix) with the probe's optimizer scan as
// each case has it: only a complete scan of every process that printed the break, seeing the LR scheduler's
// wrapper on its Adam and no other wrapper, makes it by design; a program's wrapper is named; anything else stays
// inferred from the wording, with what the probe saw where that is something.
func TestOptimizerStepBasisFromProbes(t *testing.T) {
	rep, _, err := BuildReport([]string{filepath.Join("..", "testdata", "recorded", "train-loop", "runs", "0011-breaks", "stderr.log")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sched := report.OptimizerStep{Class: "Adam", Step: report.StepLRScheduler, Count: 1}
	mine := report.OptimizerStep{Class: "Adam", Step: report.StepOther, Count: 1, Wrapper: "counted_step", File: "/w/wrapped_step.py", Line: 13}
	lib := report.OptimizerStep{Class: "Adam", Step: report.StepOther, Count: 2, Wrapper: "hooked", File: "/venv/lib/python3.11/site-packages/acc/opt.py", Line: 40}
	proc := func(source string, scan string, os ...report.OptimizerStep) report.ProcessInfo {
		p := report.ProcessInfo{PID: 7, RankSource: source}
		if scan != "" {
			p.Optim = &report.OptimScan{Scan: scan, Optimizers: os}
		}
		return p
	}
	const inferred = "inferred from the wording"
	for _, c := range []struct {
		name     string
		probes   []report.ProcessInfo
		basis    string // its prefix
		expected bool
		note     string // in the detail
	}{
		{"no probe", nil, inferred, false, ""},
		{"scheduler's", []report.ProcessInfo{proc("default", report.ScanComplete, sched)}, "probe: Adam.step wrapped by the LR scheduler", true,
			"in the process that printed it, 1 Adam whose `step` is the wrapper LRScheduler.__init__ sets"},
		{"scheduler's, and an SGD's own wrapper", []report.ProcessInfo{proc("default", report.ScanComplete, sched,
			report.OptimizerStep{Class: "SGD", Step: report.StepOther, Count: 1, Wrapper: "w"})}, "probe: Adam.step wrapped by the LR scheduler", true, ""},
		{"the program's", []report.ProcessInfo{proc("default", report.ScanComplete, mine)},
			"probe: Adam.step replaced by the program's counted_step (wrapped_step.py:13)", false, "Not an LR scheduler's: counted"},
		{"a library's", []report.ProcessInfo{proc("default", report.ScanComplete, lib)},
			"probe: Adam.step replaced by another callable: hooked (acc/opt.py:40)", false, "2 Adams whose `step` was set"},
		{"older probe", []report.ProcessInfo{proc("default", "")}, inferred, false, ""},
		{"cut short", []report.ProcessInfo{proc("default", report.ScanPartial, sched)}, inferred, false, "scan was cut short (partial)"},
		{"both", []report.ProcessInfo{proc("default", report.ScanComplete, sched, mine)}, inferred, false,
			"counted_step (wrapped_step.py:13) as another's: which one this call used it cannot tell"},
		{"only the class's own", []report.ProcessInfo{proc("default", report.ScanComplete, report.OptimizerStep{Class: "Adam", Step: report.StepOriginal, Count: 1})},
			inferred, false, "every live Adam had its class's own `step` (1 optimizer); a guess:"},
		{"gone", []report.ProcessInfo{proc("default", report.ScanComplete)}, inferred, false, "no live Adam"},
		// a probe of rank 0 is not the process of a line without rank prefix
		{"another process", []report.ProcessInfo{proc("env", report.ScanComplete, sched)}, inferred, false, ""},
		{"one of two scans partial", []report.ProcessInfo{proc("default", report.ScanComplete, sched), proc("default", report.ScanPartial)}, inferred, false,
			"cut short"},
	} {
		an := Analyze(rep, nil, c.probes)
		var f *findings.Finding
		for i := range an.Findings {
			if an.Findings[i].Playbook == "gb-optimizer-step-wrapped" {
				f = &an.Findings[i]
			}
		}
		if f == nil {
			t.Fatalf("%s: no opt.step finding", c.name)
		}
		if !strings.HasPrefix(f.Basis, c.basis) || f.Expected != c.expected || !strings.Contains(f.Title, f.Basis) ||
			!strings.Contains(f.Detail, c.note) {
			t.Errorf("%s: basis %q expected %v\n%s\n%s", c.name, f.Basis, f.Expected, f.Title, f.Detail)
		}
		if c.expected != (f.Category == findings.CategoryExpected) || c.expected != (f.Unexpected() == 0) {
			t.Errorf("%s: category %s, counted %d", c.name, f.Category, f.Unexpected())
		}
	}
}

// Every rank that printed the break needs its probe: one rank's is not the other's.
func TestOptimizerStepEvidencePerRank(t *testing.T) {
	sched := &report.OptimScan{Scan: report.ScanComplete, Optimizers: []report.OptimizerStep{{Class: "Adam", Step: report.StepLRScheduler, Count: 1}}}
	r0 := report.ProcessInfo{Rank: 0, RankSource: "env", PID: 1, Optim: sched}
	r1 := report.ProcessInfo{Rank: 1, RankSource: "env", PID: 2, Optim: sched}
	if w := findings.OptimizerStepEvidence("Adam", []int{0, 1}, []report.ProcessInfo{r0}).Whose(); w != "" {
		t.Errorf("rank 1 without its probe: %q", w)
	}
	if w := findings.OptimizerStepEvidence("Adam", []int{0, 1}, []report.ProcessInfo{r0, r1}).Whose(); w != report.StepLRScheduler {
		t.Errorf("both ranks: %q", w)
	}
	if w := findings.OptimizerStepEvidence("SGD", []int{0, 1}, []report.ProcessInfo{r0, r1}).Whose(); w != "" {
		t.Errorf("another class: %q", w)
	}
}

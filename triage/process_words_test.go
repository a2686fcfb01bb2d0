package triage_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/logparse"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/gate"
	"github.com/torchtriage/torchtriage/triage/ranks"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// One process, or one rank, agrees with nothing: the agreement is "not compared" (JSON agree false, not_compared
// says why), never agree true, and it is no disagreement either.
func TestOneProcessIsNotAgreement(t *testing.T) {
	for _, rks := range [][]int{nil, {3}} {
		ra := ranks.RankAgree(rks, nil)
		if ra.Agree || ra.Disagree() || ra.NotCompared == "" {
			t.Errorf("ranks %v: %+v", rks, ra)
		}
	}
	a := triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/gb_recompile.triage.log")), nil, nil)
	if a.RankAgreement.Agree || a.RankAgreement.Summary != "single process" {
		t.Errorf("single-process log: %+v", a.RankAgreement)
	}
}

// A torchrun job whose ranks printed nothing rank-tagged (the funcol fix: no break, no recompile) shows no rank
// prefix; torchrun's own launcher lines show it was a job of several processes, not "single process".
func TestTorchrunJobWithoutRankPrefixIsNoSingleProcess(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/r06_dist_funcol.triage.log")), nil, nil)
	if !a.Evidence.Torchrun || a.Evidence.ProcessesText() != "torchrun job, no rank prefix" {
		t.Errorf("evidence %+v: %q", a.Evidence, a.Evidence.ProcessesText())
	}
	var b strings.Builder
	render.WriteReportText(&b, a, text.Options{Width: 200})
	render.WriteFindingsText(&b, a, text.Options{Width: 200})
	if !strings.Contains(b.String(), "· torchrun job, no rank prefix\n") || strings.Contains(b.String(), "single process") ||
		!strings.Contains(b.String(), "Rank agreement: not compared: a torchrun job whose lines carry no rank prefix") {
		t.Errorf("report:\n%s", b.String())
	}
	if ra := a.RankAgreement; ra.Agree || ra.Disagree() || ra.NotCompared == "" {
		t.Errorf("agreement %+v", ra)
	}
	one := triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/gb_recompile.triage.log")), nil, nil)
	if one.Evidence.Torchrun || one.Evidence.ProcessesText() != "single process" {
		t.Errorf("a single python process: %+v %q", one.Evidence, one.Evidence.ProcessesText())
	}
	ddp := triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/ddp_2ranks.ddp.log")), nil, nil)
	if ddp.Evidence.ProcessesText() != "ranks 0,1" { // its launcher printed nothing: the prefixes say it
		t.Errorf("a torchrun job with rank prefixes: %+v %q", ddp.Evidence, ddp.Evidence.ProcessesText())
	}
}

// In a torchrun job an item without ranks came from the launcher or from lines without a rank prefix, not from a
// "single process" (the port-in-use failure is torchrun's own).
func TestTorchrunItemWithoutRanks(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, Fx("failures/torch-2.6.torchrun-port-in-use.log")), nil, nil)
	var b strings.Builder
	render.WriteReportText(&b, a, text.Options{Width: 200})
	if !strings.Contains(b.String(), "Runtime error ×1 no rank prefix torch.distributed.DistNetworkError") || strings.Contains(b.String(), "single process") {
		t.Errorf("report:\n%s", b.String())
	}
	b.Reset()
	render.WriteReportText(&b, triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/gb_recompile.triage.log")), nil, nil), text.Options{Width: 200})
	if !strings.Contains(b.String(), "×4 single process") {
		t.Errorf("a single process's items:\n%s", b.String())
	}
}

// The findings' detail says of a torchrun job's rank-less item what the report's item line says: no rank
// prefix, not "single process" (the TUI's detail and the JSON finding read "single process").
func TestTorchrunFindingDetailWithoutRanks(t *testing.T) {
	data, err := os.ReadFile(Fx("torch-2.14/r06_dist_funcol.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	brk, err := os.ReadFile(Fx("torch-2.14/gb_recompile.triage.log")) // its records carry no rank prefix
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "job.log")
	os.WriteFile(log, append(data, brk...), 0o644)
	a := triage.Analyze(triage.LoadReport(t, log), nil, nil)
	n := 0
	for _, f := range a.Findings {
		if f.Kind != findings.KindGraphBreak && f.Kind != findings.KindRecompile {
			continue
		}
		n++
		if strings.Contains(f.Detail, "single process") || !strings.Contains(f.Detail, "no rank prefix") {
			t.Errorf("%s detail:\n%s", f.ID, f.Detail)
		}
	}
	if n == 0 || !a.Evidence.Torchrun {
		t.Fatalf("%d findings, torchrun %v", n, a.Evidence.Torchrun)
	}
}

// Ranks of an input without torch output were not compared because nothing of torch printed, not because
// TORCH_LOGS was off ("rerun with --preset breaks" sent the user the wrong way), and their per-rank zeros are
// no counts: each rank's line says so in the counts line's words (Uncounted).
func TestRanksWithoutTorchOutput(t *testing.T) {
	log := filepath.Join(t.TempDir(), "plain.log")
	os.WriteFile(log, []byte("[rank0]:hello\n[rank1]:hello\n[rank0]:epoch 1\n"), 0o644)
	a := triage.Analyze(triage.LoadReport(t, log), nil, nil)
	if ra := a.RankAgreement; ra.Agree || ra.Disagree() || ra.NotCompared != "no torch output" || strings.Contains(ra.Summary, "TORCH_LOGS") {
		t.Errorf("agreement %+v", ra)
	}
	var b strings.Builder
	render.WriteReportText(&b, a, text.Options{Width: 200})
	if !strings.Contains(b.String(), "ranks 0,1: no torch output: nothing counted") || strings.Contains(b.String(), "0 limit hits") {
		t.Errorf("report:\n%s", b.String())
	}
}

// The launcher's process count names ranks only when torch ran: a torchrun that failed before starting its ranks
// (python -m torch.distributed.run without torch) read "ranks 0,1" and "the 2 ranks (0,1) could not be compared".
func TestLauncherRanksNeedTorchOutput(t *testing.T) {
	code := 1
	empty := filepath.Join(t.TempDir(), "stderr.log")
	os.WriteFile(empty, []byte("/usr/bin/python3: Error while finding module specification for 'torch.distributed.run'\n"), 0o644)
	a := triage.AnalyzeRun(triage.LoadReport(t, empty), nil, nil, &report.RunFacts{Outcome: report.OutcomeFailed, ExitCode: &code, WorldSize: 2,
		TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true})
	if len(a.Evidence.Ranks) != 0 || strings.Contains(a.RankAgreement.Summary, "2 ranks") {
		t.Errorf("ranks %v, agreement %q", a.Evidence.Ranks, a.RankAgreement.Summary)
	}
	// torch ran (r06: torchrun's launcher lines, no rank prefix): the launcher's count says which ranks there were
	a = triage.AnalyzeRun(triage.LoadReport(t, Fx("torch-2.14/r06_dist_funcol.triage.log")), nil, nil, &report.RunFacts{Outcome: report.OutcomeCompleted,
		WorldSize: 2, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true})
	if len(a.Evidence.Ranks) != 2 {
		t.Errorf("a clean 2-rank job: ranks %v", a.Evidence.Ranks)
	}
}

// An input without torch output shows no process at all: its header does not say "single process", nor its rank
// agreement (an empty log read both).
func TestNoTorchOutputIsNoSingleProcess(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.log")
	os.WriteFile(empty, nil, 0o644)
	a := triage.Analyze(triage.LoadReport(t, empty), nil, nil)
	if got := a.Evidence.ProcessesText(); got != "no torch process seen" {
		t.Errorf("processes %q", got)
	}
	if ra := a.RankAgreement; ra.Summary != "not compared: no torch output" || ra.NotCompared != "no torch output" {
		t.Errorf("agreement %+v", ra)
	}
}

// Torch's log lines name their process (glog's pid): lines of two processes without a rank prefix are no "single
// process" (two real 2.14 runs in one file, as a job launched without rank prefixes, or a script run twice into
// one log, prints them). The header and the rank agreement say so, in every format.
func TestTwoProcessesWithoutRankPrefix(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, twoProcessLog(t)), nil, nil)
	if a.Evidence.Processes != 2 || a.Evidence.ProcessesText() != "2 processes, no rank prefix" {
		t.Errorf("processes %d: %q", a.Evidence.Processes, a.Evidence.ProcessesText())
	}
	if ra := a.RankAgreement; ra.Summary != "not compared: 2 processes whose lines carry no rank prefix" || ra.Agree {
		t.Errorf("agreement %+v", ra)
	}
	var txt, md strings.Builder
	render.WriteReportText(&txt, a, text.Options{Width: 200})
	render.WriteMarkdown(&md, a)
	if strings.Contains(txt.String(), "single process") || strings.Contains(md.String(), "single process") {
		t.Errorf("text:\n%s\nmarkdown:\n%s", txt.String(), md.String())
	}
	// one run's log is one process
	if a := triage.Analyze(triage.LoadReport(t, Fx("torch-2.14/r01_branch_print.triage.log")), nil, nil); a.Evidence.Processes != 1 || a.Evidence.ProcessesText() != "single process" {
		t.Errorf("one run: %d %q", a.Evidence.Processes, a.Evidence.ProcessesText())
	}
}

// --ranks-agree on lines of two processes without rank prefixes is no evidence that says "one process".
func TestRanksAgreeGateOfTwoUnprefixedProcesses(t *testing.T) {
	a := triage.Analyze(triage.LoadReport(t, twoProcessLog(t)), nil, nil)
	why := gate.MissingEvidence(a, gate.Options{MaxGraphBreaks: -1, MaxRecompiles: -1, RanksAgree: true})
	if !strings.Contains(why, "2 processes whose lines carry no rank prefix") || strings.Contains(why, "one process") {
		t.Errorf("missing evidence %q", why)
	}
}

// twoProcessLog writes two real 2.14 runs one after the other into one file: torch's lines of two pids, no rank
// prefix.
func twoProcessLog(t *testing.T) string {
	t.Helper()
	var both []byte
	for _, name := range []string{"torch-2.14/r01_branch_print.triage.log", "torch-2.14/r02_item.triage.log"} {
		data, err := os.ReadFile(Fx(name))
		if err != nil {
			t.Fatal(err)
		}
		both = append(both, data...)
	}
	path := filepath.Join(t.TempDir(), "two.log")
	if err := os.WriteFile(path, both, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Processes are counted up to logparse.MaxPIDs: that many is a floor, said as one.
func TestManyProcessesAreAFloor(t *testing.T) {
	ev := report.ReportEvidence{TorchSeen: true, Processes: logparse.MaxPIDs}
	if got := ev.ProcessesText(); got != "at least 64 processes, no rank prefix" {
		t.Errorf("%q", got)
	}
}

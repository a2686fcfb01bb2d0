package compare_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/internal/testlogs"
	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/compare"
	"github.com/torchtriage/torchtriage/triage/findings"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
	"github.com/torchtriage/torchtriage/triage/triagetest"
)

// The triage and verbose captures of one repro were two runs of the same program: nothing may be new or gone
// (counts may change: recompiles_verbose runs differ in which branch a random input takes).
func TestDiffTriageVsVerboseNoSpuriousItems(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "torch-*", "*.triage.log"))
	if len(files) < 16 {
		t.Fatalf("only %d triage captures", len(files))
	}
	compared := 0
	for _, tri := range files {
		ver := strings.TrimSuffix(tri, ".triage.log") + ".verbose.log"
		if _, err := os.Stat(ver); err != nil {
			continue
		}
		compared++
		relT, _ := filepath.Rel(fixtures, tri)
		relV, _ := filepath.Rel(fixtures, ver)
		d := compare.Diff(triagetest.AnalyzeFiles(t, relT), triagetest.AnalyzeFiles(t, relV))
		if d.New != 0 || d.Gone != 0 {
			t.Errorf("%s vs verbose: %d new, %d gone: %+v", filepath.Base(tri), d.New, d.Gone, d.Items)
		}
	}
	if compared < 16 {
		t.Errorf("compared only %d pairs", compared)
	}
	d := compare.Diff(triagetest.AnalyzeFiles(t, "torch-2.14/r01_branch_print.triage.log"), triagetest.AnalyzeFiles(t, "torch-2.14/r01_branch_print.verbose.log"))
	if d.Changed != 2 || d.Items[0].Key != `graph_break:r01_branch_print.py:f:print():print("side effect")` || d.Items[1].Key != "recompile:r01_branch_print.py:f:size" ||
		d.Items[1].Before != 2 || d.Items[1].After != 3 {
		t.Errorf("r01 2.14: %+v", d)
	}
}

// Captures without TORCH_LOGS show only the Tensor.item() warning: their graph breaks and recompiles were not
// logged, so nothing of them is new or gone against the triage capture (the diff called the other 7 breaks and
// recompile classes "new", and "gone" the other way); the diff says what it did not compare, on which side.
func TestDiffNewAndGone(t *testing.T) {
	quiet, full := triagetest.AnalyzeFiles(t, "torch-2.14/gb_recompile.no_torch_logs.log"), triagetest.AnalyzeFiles(t, "torch-2.14/gb_recompile.triage.log")
	for _, c := range []struct {
		a, b *triage.Analysis
		side string
	}{{quiet, full, "A"}, {full, quiet, "B"}} {
		d := compare.Diff(c.a, c.b)
		for _, it := range d.Items {
			if it.Kind == findings.KindGraphBreak || it.Kind == findings.KindRecompile {
				t.Errorf("%s not logged: compared %+v", c.side, it)
			}
		}
		nc := strings.Join(d.NotCompared, "\n")
		// logs alone do not say what TORCH_LOGS was: the absence of their records is all they show (a run's own
		// TORCH_LOGS says "did not log them": the TUI's TestDiffScreenSaysWhatWasNotCompared)
		if !strings.Contains(nc, "graph breaks: "+c.side+" shows no sign they were logged") || !strings.Contains(nc, "recompiles: "+c.side+" shows no sign they were logged") ||
			strings.Contains(nc, "did not log them") {
			t.Errorf("%s not logged: not compared %q", c.side, d.NotCompared)
		}
		var txt bytes.Buffer
		compare.WriteDiffText(&txt, "a.log", "b.log", d, text.Options{Width: 200})
		if !strings.Contains(txt.String(), "Not compared") || strings.Contains(txt.String(), "No difference in graph breaks") {
			t.Errorf("%s not logged: text\n%s", c.side, txt.String())
		}
	}
	// both logged: the items are compared
	d := compare.Diff(full, triagetest.AnalyzeFiles(t, "torch-2.14/gb_recompile.wide.log"))
	if len(d.NotCompared) != 0 || d.Unchanged+d.Changed+d.Moved == 0 {
		t.Errorf("both logged: %+v", d)
	}
}

// Per rank: rank 2 recompiles once more, rank 3 breaks where it did not.
func TestDiffSyntheticPerRank(t *testing.T) {
	guard := "tensor 'L['x']' size mismatch at index 0. expected 8, actual 9"
	a := triagetest.SynthAnalysis(t, 4, func(agg *report.Aggregator) {
		for r := 0; r < 4; r++ {
			agg.Add(testlogs.SynthRecompile(r, 0, 1, "step", guard, r+1))
		}
	})
	b := triagetest.SynthAnalysis(t, 4, func(agg *report.Aggregator) {
		for r := 0; r < 4; r++ {
			agg.Add(testlogs.SynthRecompile(r, 0, 1, "step", guard, r+1))
		}
		agg.Add(testlogs.SynthRecompile(2, 0, 2, "step", "tensor 'L['x']' size mismatch at index 0. expected 9, actual 11", 10))
		agg.Add(testlogs.SynthBreak(3, 0, 0, 10, 11))
	})
	d := compare.Diff(a, b)
	if d.New != 1 || d.Changed != 1 || len(d.Items) != 2 {
		t.Fatalf("%+v", d)
	}
	nb, ch := d.Items[0], d.Items[1]
	if nb.Kind != findings.KindGraphBreak || len(nb.Ranks) != 1 || nb.Ranks[0].Ranks[0] != 3 || nb.Ranks[0].Before != 0 || nb.Ranks[0].After != 1 {
		t.Errorf("new break %+v", nb)
	}
	if ch.Kind != findings.KindRecompile || ch.Before != 4 || ch.After != 5 || len(ch.Ranks) != 1 || ch.Ranks[0].Ranks[0] != 2 || ch.Ranks[0].After != 2 {
		t.Errorf("changed %+v", ch)
	}
	var out bytes.Buffer
	compare.WriteDiffText(&out, "A", "B", d, text.Options{})
	for _, want := range []string{"New in B", "+ graph break: print() breaks the graph in step (train.py:10) (×1)", "new on rank 3",
		"~ recompile reason: recompiles of step on size guards (×4 → ×5)", "rank 2: 1→2", "1 new, 0 gone, 1 changed in count, 0 unchanged"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, out.String())
		}
	}
}

// A side that did not complete shows nothing of what it never reached: against a run stopped by the tool after
// 30 lines, A's breaks and recompiles read "gone from A" and a count halved by the stop "changed". What it never
// reached is not compared (what it did print is: a new item stands).
func TestDiffAgainstARunThatDidNotComplete(t *testing.T) {
	data, err := os.ReadFile(fx("torch-2.14/gb_recompile.triage.log"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "stopped.log")
	os.WriteFile(cut, []byte(strings.Join(strings.SplitAfter(string(data), "\n")[:30], "")), 0o644)
	full := triagetest.AnalyzeFiles(t, "torch-2.14/gb_recompile.triage.log")
	stopped := triage.AnalyzeRun(triagetest.LoadReport(t, cut), nil, nil, &report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "timed out after 1s", TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true})
	d := compare.Diff(full, stopped)
	if d.Gone != 0 || d.Changed != 0 {
		t.Errorf("against the stopped run: %d gone, %d changed: %+v", d.Gone, d.Changed, d.Items)
	}
	if nc := strings.Join(d.NotCompared, "\n"); !strings.Contains(nc, "gone or fewer: B did not complete (stopped by torchtriage (timed out after 1s))") {
		t.Errorf("not compared %q", d.NotCompared)
	}
	var txt bytes.Buffer
	compare.WriteDiffText(&txt, "a", "b", d, text.Options{Width: 200})
	if strings.Contains(txt.String(), "No difference") || !strings.Contains(txt.String(), "Nothing new or more in graph breaks") {
		t.Errorf("text:\n%s", txt.String())
	}
	// the other way round: what A never reached is not "new" in B
	d = compare.Diff(stopped, full)
	if d.New != 0 || d.Changed != 0 || !strings.Contains(strings.Join(d.NotCompared, "\n"), "new or more: A did not complete") {
		t.Errorf("from the stopped run: %d new, %d changed, not compared %q", d.New, d.Changed, d.NotCompared)
	}
}

// A run the tool stopped before it printed any torch output did not "print no torch output" of its own accord: the
// diff says who stopped it (the verdict's words), and a run that never started says so; a finished run that
// printed nothing keeps "printed no torch output".
func TestDiffNamesTheToolsStopOfASilentRun(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.log")
	os.WriteFile(empty, nil, 0o644)
	full := triagetest.AnalyzeFiles(t, "torch-2.14/gb_recompile.triage.log")
	on := func(f report.RunFacts) *triage.Analysis {
		f.TorchLogs, f.TorchLogsSet = "graph_breaks,recompiles", true
		return triage.AnalyzeRun(triagetest.LoadReport(t, empty), nil, nil, &f)
	}
	zero := 0
	for _, c := range []struct {
		run        *triage.Analysis
		want, lack string
	}{
		{on(report.RunFacts{Outcome: report.OutcomeStopped, StopReason: "timed out after 2s"}),
			"graph breaks: B was stopped by torchtriage (timed out after 2s) before it printed any torch output", "printed no torch output,"},
		{on(report.RunFacts{Outcome: report.OutcomeDidNotStart, Error: "exec: \"pythn\": executable file not found in $PATH"}),
			"graph breaks: B did not start", "printed no torch output"},
		{on(report.RunFacts{Outcome: report.OutcomeInterrupted}),
			"graph breaks: B was interrupted (the tool supervising it is gone) before it printed any torch output", "printed no torch output,"},
		{on(report.RunFacts{Outcome: report.OutcomeCompleted, ExitCode: &zero}), "graph breaks: B printed no torch output", ""},
	} {
		d := compare.Diff(full, c.run)
		nc := strings.Join(d.NotCompared, "\n")
		if !strings.Contains(nc, c.want) || c.lack != "" && strings.Contains(nc, c.lack) {
			t.Errorf("not compared:\n%s\nwant %q", nc, c.want)
		}
	}
}

// A side with torch.compile off compiled nothing: its breaks and recompiles are not "gone", they could not happen;
// the diff says why they are not compared (a run whose wrapper set TORCHDYNAMO_DISABLE=1).
func TestDiffAgainstARunWithCompileOff(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.log")
	os.WriteFile(empty, nil, 0o644)
	full := triagetest.AnalyzeFiles(t, "torch-2.14/gb_recompile.triage.log")
	zero := 0
	off := triage.AnalyzeRun(triagetest.LoadReport(t, empty), nil, []report.ProcessInfo{{Rank: 0, RankSource: "default", Torch: "2.14.1",
		Env: map[string]string{"TORCHDYNAMO_DISABLE": "1"}}},
		&report.RunFacts{Outcome: report.OutcomeCompleted, ExitCode: &zero, TorchLogs: "graph_breaks,recompiles", TorchLogsSet: true})
	d := compare.Diff(full, off)
	if d.Gone != 0 || d.Changed != 0 {
		t.Errorf("against the compile-off run: %d gone, %d changed: %+v", d.Gone, d.Changed, d.Items)
	}
	if nc := strings.Join(d.NotCompared, "\n"); !strings.Contains(nc, "graph breaks: B compiled nothing (torch.compile off: TORCHDYNAMO_DISABLE=1)") {
		t.Errorf("not compared:\n%s\n%+v", nc, d)
	}
}

// A recompile's site is the line of its failing guard where the log gives it (2.14's user stack) and the
// function's first line where it does not (2.6): two versions' logs of one run differ there, and nothing moved
// (real logs of the exploratory run, written from the same repro: the 2.6 log says f's line 2, 2.14.1 line 4).
func TestDiffDoesNotMoveARecompileBetweenSiteKinds(t *testing.T) {
	withFrame := &findings.Finding{Kind: findings.KindRecompile, File: "/x/shapes.py", Line: 4, Function: "f"}
	withoutFrame := &findings.Finding{Kind: findings.KindRecompile, File: "/x/shapes.py", Line: 2, Function: "f", FnSite: true}
	a := &triage.Analysis{Report: &report.Report{}, Findings: []findings.Finding{*withoutFrame}, Evidence: report.ReportEvidence{TorchSeen: true, GraphBreaksLogged: true, RecompilesLogged: true}}
	b := &triage.Analysis{Report: &report.Report{}, Findings: []findings.Finding{*withFrame}, Evidence: a.Evidence}
	a.Findings[0].Key, b.Findings[0].Key = "recompile:shapes.py:f:value_float", "recompile:shapes.py:f:value_float"
	a.Findings[0].Records, b.Findings[0].Records = 1, 1
	if d := compare.Diff(a, b); d.Moved != 0 || d.Unchanged != 1 {
		t.Errorf("moved %d, unchanged %d: %+v", d.Moved, d.Unchanged, d.Items)
	}
}

package triage_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/torchtriage/torchtriage/triage"
	"github.com/torchtriage/torchtriage/triage/render"
	"github.com/torchtriage/torchtriage/triage/report"
	"github.com/torchtriage/torchtriage/triage/text"
)

// compileOffRun is two ranks of a run whose environment turned torch.compile off (TORCHDYNAMO_DISABLE=1, the
// probe saw it), with graph_breaks and recompiles logged: nothing compiled, so none of its zeros is a count. Rank 1
// died of a plain Python error, which is counted whatever compiled.
func compileOffRun() *triage.Analysis {
	zero := 0
	off := map[string]string{"TORCHDYNAMO_DISABLE": "1", "TORCH_LOGS": "graph_breaks,recompiles"}
	rep := &report.Report{Inputs: []string{"combined.log"}, Ranks: []int{0, 1}, Counts: report.Counts{RuntimeErrors: 1},
		PerRank: map[string]report.Counts{"0": {}, "1": {RuntimeErrors: 1}}}
	return triage.AnalyzeRun(rep, nil, []report.ProcessInfo{
		{Rank: 0, RankSource: "env", Torch: "2.14.1", Env: off},
		{Rank: 1, RankSource: "env", Torch: "2.14.1", Env: off},
	}, &report.RunFacts{Outcome: report.OutcomeCompleted, ExitCode: &zero, TorchLogsSet: true, TorchLogs: "graph_breaks,recompiles"})
}

// A run that compiled nothing counted nothing: the text report's counts line and "Per rank" said "graph breaks 0
// distinct (0 records)" and "rank 0: 0 breaks, 0 recompiles, …", the Markdown a table of zeros and the JSON
// nothing, while the bring-up log and the TUI said the counts were not counted (nothing compiled). All of them
// say it in the one phrase (Analysis.Uncounted); the JSON's counts_uncounted says why, typed.
func TestNothingCompiledIsNotCountedInEveryForm(t *testing.T) {
	an := compileOffRun()
	const none = "nothing compiled (torch.compile off: TORCHDYNAMO_DISABLE=1)"
	if got := an.Uncounted(); got != none {
		t.Fatalf("Uncounted %q, want %q", got, none)
	}
	var txt bytes.Buffer
	render.WriteReportText(&txt, an, text.Options{Width: 300})
	for _, want := range []string{"\n" + none + " · runtime errors 1\n", "rank 0: " + none + "\n",
		"rank 1: " + none + ", 1 runtime error\n"} {
		if !strings.Contains(txt.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, txt.String())
		}
	}
	for _, zero := range []string{"graph breaks 0", "0 breaks", "recompiles 0", "0 recompiles"} {
		if strings.Contains(txt.String(), zero) {
			t.Errorf("text counts %q:\n%s", zero, txt.String())
		}
	}
	var md bytes.Buffer
	render.WriteMarkdown(&md, an)
	if !strings.Contains(md.String(), "\n"+render.MarkdownEscape(none)+" · runtime errors 1\n") || strings.Contains(md.String(), "| graph breaks |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	var js bytes.Buffer
	if err := render.WriteReport(&js, an, "json", text.Options{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Counts          report.Counts           `json:"counts"`
		CountsUncounted *triage.CountsUncounted `json:"counts_uncounted"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if u := doc.CountsUncounted; u == nil || u.Why != triage.UncountedNothingCompiled || u.Words != none || doc.Counts.RuntimeErrors != 1 {
		t.Errorf("json counts_uncounted %+v, counts %+v", u, doc.Counts)
	}
}

// Input with no torch output at all says so in the same one phrase, per rank too ("nothing counted (no torch
// output)" was the Per rank's own wording), and its JSON says why; a report whose counts stand has no
// counts_uncounted.
func TestNoTorchOutputIsNotCountedInEveryForm(t *testing.T) {
	rep := &report.Report{Inputs: []string{"a.log"}, Ranks: []int{0, 1}, Counts: report.Counts{RuntimeErrors: 1},
		PerRank: map[string]report.Counts{"0": {}, "1": {RuntimeErrors: 1}}}
	an := triage.Analyze(rep, nil, nil)
	none := an.Uncounted()
	if none != "no torch output: no torch.compile event counted" {
		t.Fatalf("Uncounted %q", none)
	}
	var txt bytes.Buffer
	render.WriteReportText(&txt, an, text.Options{Width: 300})
	if !strings.Contains(txt.String(), "rank 0: "+none+"\n") || !strings.Contains(txt.String(), "rank 1: "+none+", 1 runtime error\n") {
		t.Errorf("text:\n%s", txt.String())
	}
	if u := render.JSONOf(an).CountsUncounted; u == nil || u.Why != triage.UncountedNoTorch || u.Words != none {
		t.Errorf("json counts_uncounted %+v", u)
	}
	if u := render.JSONOf(triage.Analyze(&report.Report{Evidence: report.ReportEvidence{TorchSeen: true, GraphBreaksLogged: true}}, nil, nil)).CountsUncounted; u != nil {
		t.Errorf("counts that stand: counts_uncounted %+v", u)
	}
}
